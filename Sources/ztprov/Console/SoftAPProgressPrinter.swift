import Protocomm
import Provisioning
import Transports

/// Renders the SoftAP flow's progress as human lines on stderr and JSON events on stdout.
///
/// `ztprov softap` and `ztprov demo` both print through it, so the demo looks exactly like a real run.
struct SoftAPProgressPrinter: Sendable {
    let console: Console

    func report(_ progress: SoftAPProgress) {
        switch progress {
        case .joiningHotspot(let ssid):
            step("Joining the device's hotspot \"\(ssid)\"", "hotspot-joining", [JSONField("ssid", .string(ssid))])
        case .joinedHotspot(let network):
            console.success("Joined \"\(network.ssid)\" on \(network.interfaceName)" + Self.address(network))
            console.event("hotspot-joined", Self.fields(network))
        case .deviceDescribed(let info):
            step(
                "Device runs protocomm \(info.version)", "device-described",
                [
                    JSONField("version", .string(info.version)),
                    JSONField("capabilities", .array(info.capabilities.map { .string("\($0)") })),
                ])
        case .securityChosen(let used):
            step(
                "Using \(used.level)" + (used.isAutomatic ? " (as the device asks)" : ""), "security-chosen",
                Self.fields(used))
        case .sessionEstablished(let level):
            console.success("Secure session established (\(level))")
            console.event("session-established", [JSONField("security", .int(level.rawValue))])
        case .scanningNetworks:
            step("Device scanning for networks", "scanning", [])
        case .networksListed(let networks):
            step(
                "Device sees \(networks.count) network\(networks.count == 1 ? "" : "s")", "networks",
                [JSONField("ssids", .array(networks.map { .string(String(decoding: $0.ssid, as: UTF8.self)) }))])
        case .scanUnavailable:
            step("Device cannot scan; skipping the network list", "scan-unavailable", [])
        case .credentialsSent(let ssid):
            step("Sent the network \"\(ssid)\" to the device", "credentials-sent", [JSONField("ssid", .string(ssid))])
        case .credentialsApplied:
            step("Device is joining the network", "credentials-applied", [])
        case .deviceConnecting(let attempts):
            console.progress(
                "Device still connecting" + (attempts.map { " (\($0) attempts left)" } ?? ""), detail: true)
            console.event("device-connecting", [JSONField("attempts_remaining", .optional(attempts.map(Int.init)))])
        case .deviceConnected(let connection):
            console.success("Device joined \"\(connection.ssid)\" with address \(connection.ipAddress)")
            console.event("device-connected", Self.fields(connection))
        case .deviceReset:
            step("Device reset for new credentials", "device-reset", [])
        case .deviceResetUnavailable:
            console.warning("The device could not be reset; power-cycle it before trying again")
            console.event("device-reset-unavailable", [])
        case .leavingHotspot(let ssid):
            step(
                "Leaving \"\(ssid)\" and restoring the host's network", "hotspot-leaving",
                [JSONField("ssid", .string(ssid))])
        case .leftHotspot(let ssid):
            console.success("Left \"\(ssid)\"; the host is back on its network")
            console.event("hotspot-left", [JSONField("ssid", .string(ssid))])
        case .restoreFailed(let error):
            console.warning("\(error.message)\nhint: \(error.hint)")
            console.event("restore-failed", [JSONField("code", .string(error.code.rawValue))])
        }
    }

    private func step(_ text: String, _ name: String, _ fields: [JSONField]) {
        console.progress(text)
        console.event(name, fields)
    }

    private static func address(_ network: JoinedWiFiNetwork) -> String {
        network.localAddress.map { " as \($0)" } ?? ""
    }

    static func fields(_ network: JoinedWiFiNetwork) -> [JSONField] {
        [
            JSONField("ssid", .string(network.ssid)), JSONField("bssid", .string(network.bssid)),
            JSONField("interface", .string(network.interfaceName)),
            JSONField("address", .optional(network.localAddress)),
        ]
    }

    static func fields(_ used: SoftAPSecurityUsed) -> [JSONField] {
        [
            JSONField("security", .int(used.level.rawValue)), JSONField("patch", .optional(used.patch?.rawValue)),
            JSONField("automatic", .bool(used.isAutomatic)), JSONField("pop", .bool(used.usesProofOfPossession)),
        ]
    }

    static func fields(_ connection: SoftAPDeviceConnection) -> [JSONField] {
        [
            JSONField("ip", .string(connection.ipAddress)), JSONField("ssid", .string(connection.ssid)),
            JSONField("bssid", .optional(connection.bssid)), JSONField("channel", .int(connection.channel)),
            JSONField("auth", .string("\(connection.authMode)")),
        ]
    }
}
