import JSONWriting
import Protocomm
import Provisioning
import Transports

/// Renders the SoftAP flow's progress as human lines on stderr and JSON events on stdout.
///
/// The flow's progress carries no secret, so nothing here can print one.
struct SoftAPProgressPrinter: Sendable {
    let console: Console

    func report(_ progress: SoftAPProgress) {
        switch progress {
        case .joiningHotspot(let ssid):
            console.progress("Joining the hotspot \(ssid)")
            console.event("joining-hotspot", [JSONField("ssid", .string(ssid))])
        case .joinedHotspot(let network):
            console.progress("On \(network.ssid) (\(network.bssid)) via \(network.interfaceName)")
            console.event("joined-hotspot", Self.fields(network))
        case .protocomm(let step):
            ProtocommProgressPrinter(console: console).report(step)
        case .leavingHotspot(let ssid):
            console.progress("Leaving \(ssid) and restoring the previous network")
            console.event("leaving-hotspot", [JSONField("ssid", .string(ssid))])
        case .leftHotspot(let ssid):
            console.progress("Left \(ssid); the previous network is back")
            console.event("left-hotspot", [JSONField("ssid", .string(ssid))])
        case .restoreFailed(let error):
            console.warning("\(error.message) \(error.hint)")
            console.event("restore-failed", [JSONField("code", .string(error.code.rawValue))])
        }
    }

    static func fields(_ network: JoinedWiFiNetwork) -> [JSONField] {
        [
            JSONField("ssid", .string(network.ssid)), JSONField("bssid", .string(network.bssid)),
            JSONField("interface", .string(network.interfaceName)),
            JSONField("local_address", .optional(network.localAddress)),
        ]
    }
}
