import BluFi
import JSONWriting
import Provisioning

extension BluFiProgress: ConsoleProgress {
    var line: ProgressLine {
        let (event, fields) = consoleEvent
        return switch self {
        case .wifiConnected, .softAPStarted: ProgressLine(.success, ProgressLine.sentence(self), event: event, fields)
        case .securityFellBack: ProgressLine(.warning, description, event: event, fields)
        case .wifiListReceived(let found):
            ProgressLine(
                ProgressLine.sentence(self), event: event, fields,
                rows: found.map { HeardNetworkText.row(HeardNetwork($0)) })
        case .sessionStarted, .negotiationStarted, .wifiStatusChanged:
            ProgressLine(.detail, ProgressLine.sentence(self), event: event, fields)
        default: ProgressLine(ProgressLine.sentence(self), event: event, fields)
        }
    }

    private var consoleEvent: (String, [JSONField]) {
        switch self {
        case .sessionStarted(let mtu): ("session-started", [JSONField("mtu", .int(mtu))])
        case .versionReceived(let version): ("version", [JSONField("blufi_version", .string("\(version)"))])
        case .versionUnavailable: ("version", [JSONField("blufi_version", .null)])
        case .securityFellBack(let from, let to, let reason):
            (
                "warning",
                [
                    JSONField("code", "blufi.security-fallback"),
                    JSONField("rejected_security", .string(BluFiFields.name(from))),
                    JSONField("security", .string(BluFiFields.name(to))), JSONField("message", .string(reason)),
                ]
            )
        case .negotiationStarted(let scheme):
            ("negotiation-started", [JSONField("security", .string(BluFiFields.name(scheme)))])
        case .sessionReady(let scheme): ("session-ready", [JSONField("security", .string(BluFiFields.name(scheme)))])
        case .operationModeSet(let mode): ("mode-set", [JSONField("mode", .string(mode.displayName))])
        case .joinRequested(let ssid): ("join-requested", [JSONField("ssid", .string(ssid))])
        case .softAPConfigurationSent: ("softap-configured", [])
        case .wifiStatusChanged(let report): ("wifi-status", BluFiFields.fields(report))
        case .wifiConnected(let report): ("wifi-connected", BluFiFields.fields(report))
        case .softAPStarted(let report): ("softap-started", BluFiFields.fields(report))
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
}
