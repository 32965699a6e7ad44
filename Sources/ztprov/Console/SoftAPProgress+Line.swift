import JSONWriting
import Protocomm
import Provisioning
import Transports

/// The SoftAP flow's progress carries no secret, so no line can show one.
extension SoftAPProgress: ConsoleProgress {
    var line: ProgressLine {
        switch self {
        case .joiningHotspot(let ssid):
            ProgressLine("Joining the hotspot \(ssid)", event: "joining-hotspot", [JSONField("ssid", .string(ssid))])
        case .joinedHotspot(let network):
            ProgressLine(
                "On \(network.ssid) (\(network.bssid)) via \(network.interfaceName)", event: "joined-hotspot",
                Self.fields(network))
        case .protocomm(let step): step.line
        case .leavingHotspot(let ssid):
            ProgressLine(
                "Leaving \(ssid) and restoring the previous network", event: "leaving-hotspot",
                [JSONField("ssid", .string(ssid))])
        case .leftHotspot(let ssid):
            ProgressLine(
                "Left \(ssid); the previous network is back", event: "left-hotspot", [JSONField("ssid", .string(ssid))])
        case .restoreFailed(let error):
            ProgressLine(
                .warning, "\(error.message) \(error.hint)", event: "restore-failed",
                [JSONField("code", .string(error.code.rawValue))])
        }
    }

    private static func fields(_ network: JoinedWiFiNetwork) -> [JSONField] {
        [
            JSONField("ssid", .string(network.ssid)), JSONField("bssid", .string(network.bssid)),
            JSONField("interface", .string(network.interfaceName)),
            JSONField("local_address", .optional(network.localAddress)),
        ]
    }
}
