import BluFi
import Provisioning

/// Renders the BluFi flow's progress as human lines on stderr and JSON events on stdout.
///
/// `ztprov ble` and `ztprov demo` both print through it, so the demo looks exactly like a real run.
struct BluFiProgressPrinter: Sendable {
    let console: Console

    func report(_ progress: BluFiProgress) {
        let (name, fields) = Self.event(progress)
        switch progress {
        case .wifiConnected, .softAPStarted, .sessionReady:
            console.success(Self.sentence(progress))
        case .sessionStarted, .negotiationStarted, .wifiStatusChanged, .disconnectRequested:
            console.progress(Self.sentence(progress), detail: true)
        default:
            console.progress(Self.sentence(progress))
        }
        console.event(name, fields)
    }

    /// The progress line, starting with a capital as every other step line does.
    static func sentence(_ progress: BluFiProgress) -> String {
        let text = progress.description
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// The JSON event's name and members; reports arrive without passwords, SSIDs are not secret.
    static func event(_ progress: BluFiProgress) -> (String, [JSONField]) {
        switch progress {
        case .sessionStarted(let mtu): ("blufi-session-started", [JSONField("mtu", .int(mtu))])
        case .versionReceived(let version): ("blufi-version", [JSONField("version", .string("\(version)"))])
        case .versionUnavailable: ("blufi-version", [JSONField("version", .null)])
        case .negotiationStarted(let scheme): ("blufi-negotiating", [JSONField("security", .string(name(scheme)))])
        case .sessionReady(let scheme): ("blufi-session-ready", [JSONField("security", .string(name(scheme)))])
        case .operationModeSet(let mode): ("blufi-mode-set", [JSONField("mode", .string(name(mode)))])
        case .joinRequested(let ssid): ("blufi-join-requested", [JSONField("ssid", .string(ssid))])
        case .softAPConfigurationSent: ("blufi-softap-sent", [])
        case .wifiStatusChanged(let report): ("blufi-wifi-status", [JSONField("report", .string("\(report)"))])
        case .wifiConnected(let report): ("blufi-wifi-connected", [JSONField("report", .string("\(report)"))])
        case .softAPStarted(let report): ("blufi-softap-started", [JSONField("report", .string("\(report)"))])
        case .deviceIDReceived(let id): ("blufi-device-id", [JSONField("id", .string(id))])
        case .wifiListRequested: ("blufi-scan-requested", [])
        case .wifiListReceived(let count): ("blufi-scan-results", [JSONField("count", .int(count))])
        case .disconnectRequested: ("blufi-disconnect-requested", [])
        }
    }

    /// `none`, `v1`, `v2`: the spelling of `--security`.
    static func name(_ scheme: BluFiSecurityScheme) -> String {
        switch scheme {
        case .none: "none"
        case .v1: "v1"
        case .v2: "v2"
        }
    }

    /// `off`, `sta`, `softap`, `sta+softap`: the spelling of `--mode`.
    static func name(_ mode: BluFiOperationMode) -> String {
        switch mode {
        case .null: "off"
        case .station: "sta"
        case .softAP: "softap"
        case .stationAndSoftAP: "sta+softap"
        }
    }
}
