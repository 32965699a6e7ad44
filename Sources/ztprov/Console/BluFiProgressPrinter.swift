import BluFi
import JSONWriting
import Provisioning

/// Renders the BluFi flow's progress as one human line per step on stderr and JSON events on stdout.
struct BluFiProgressPrinter: Sendable {
    let console: Console

    func report(_ progress: BluFiProgress) {
        let (name, fields) = Self.event(progress)
        switch progress {
        case .wifiConnected, .softAPStarted: console.success(Self.sentence(progress))
        case .securityFellBack: console.warning(progress.description)
        case .wifiListReceived(let found):
            console.progress(Self.sentence(progress))
            for accessPoint in found { console.output(HeardNetworkText.row(HeardNetwork(accessPoint))) }
        case .sessionStarted, .negotiationStarted, .wifiStatusChanged:
            console.progress(Self.sentence(progress), detail: true)
        default: console.progress(Self.sentence(progress))
        }
        console.event(name, fields)
    }

    /// The description with a capital letter, as progress lines read.
    private static func sentence(_ progress: BluFiProgress) -> String {
        let text = progress.description
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    private static func event(_ progress: BluFiProgress) -> (String, [JSONField]) {
        switch progress {
        case .sessionStarted(let mtu): ("session-started", [JSONField("mtu", .int(mtu))])
        case .versionReceived(let version): ("version", [JSONField("blufi_version", .string("\(version)"))])
        case .versionUnavailable: ("version", [JSONField("blufi_version", .null)])
        case .securityFellBack(let from, let to, let reason):
            (
                "warning",
                [
                    JSONField("code", "blufi.security-fallback"), JSONField("rejected_security", .string(name(from))),
                    JSONField("security", .string(name(to))), JSONField("message", .string(reason)),
                ]
            )
        case .negotiationStarted(let scheme): ("negotiation-started", [JSONField("security", .string(name(scheme)))])
        case .sessionReady(let scheme): ("session-ready", [JSONField("security", .string(name(scheme)))])
        case .operationModeSet(let mode): ("mode-set", [JSONField("mode", .string(mode.displayName))])
        case .joinRequested(let ssid): ("join-requested", [JSONField("ssid", .string(ssid))])
        case .softAPConfigurationSent: ("softap-configured", [])
        case .wifiStatusChanged(let report): ("wifi-status", fields(report))
        case .wifiConnected(let report): ("wifi-connected", fields(report))
        case .softAPStarted(let report): ("softap-started", fields(report))
        case .deviceIDReceived(let id): ("device-id", [JSONField("device_id", .string(id))])
        case .deviceIDMissing: ("device-id", [JSONField("device_id", .null)])
        case .wifiListRequested: ("wifi-list-requested", [])
        case .wifiListReceived(let found):
            (
                "wifi-list",
                [
                    JSONField("count", .int(found.count)),
                    HeardNetworkText.field(found.map(HeardNetwork.init)),
                ]
            )
        case .disconnectRequested: ("disconnect-requested", [])
        }
    }

    /// The report's fields for JSON; passwords never reach here (the flow strips them).
    static func fields(_ report: BluFiWiFiReport) -> [JSONField] {
        [
            JSONField("mode", .string(report.operationMode.displayName)),
            JSONField("station_state", .string("\(report.stationState)")),
            JSONField("ssid", .optional(report.stationSSID.map { String(decoding: $0, as: UTF8.self) })),
            JSONField("bssid", .optional(report.stationBSSID.map(hexOctets))),
            JSONField("rssi", .optional(report.rssi.map(Int.init))),
            JSONField("end_reason", .optional(report.endReason.map { Int($0.rawValue) })),
            JSONField("softap_ssid", .optional(report.softAPSSID.map { String(decoding: $0, as: UTF8.self) })),
            JSONField("softap_stations", .int(Int(report.softAPStationCount))),
        ]
    }

    static func name(_ scheme: BluFiSecurityScheme) -> String {
        switch scheme {
        case .none: "none"
        case .v1: "v1"
        case .v2: "v2"
        }
    }

    private static func hexOctets(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: ":")
    }
}
