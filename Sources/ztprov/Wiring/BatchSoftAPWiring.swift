import Provisioning
import Transports

/// The SoftAP lanes of `ztprov batch`: one Wi-Fi interface each, joining each unit's hotspot and
/// leaving it (the host's previous connection restored) before the next.
enum BatchSoftAPWiring {
    /// The lane name of the default interface (NetworkManager's first Wi-Fi device).
    static let defaultLane = "wifi"

    /// One SoftAP attempt on the lane's interface, then the hand-off if asked.
    static func attempt(
        request: @escaping @Sendable (BatchDevice) -> SoftAPProvisioningRequest, handoff: BatchHandoff?
    ) -> BatchAttempt {
        { context in
            let interface = context.lane == defaultLane ? nil : context.lane
            context.journal.ran(protocol: BLEProtocol.protocomm.rawValue)
            let outcome = try await SoftAPWiring.provisioner(interface: interface)
                .run(request(context.device), deadline: context.deadline) { progress in
                    context.journal.note(progress)
                    if let line = line(progress) { context.progress(line) }
                }
            if let handoff { try await handoff.run(context, deviceID: outcome.deviceID) }
        }
    }

    /// The progress worth a line in a busy multi-lane log.
    private static func line(_ progress: SoftAPProgress) -> String? {
        switch progress {
        case .joinedHotspot(let network): "joined hotspot \(network.ssid) on \(network.interfaceName)"
        case .protocomm(.sessionEstablished(let level)): "session with \(level) established"
        case .protocomm(.credentialsSent(let ssid)): "sent the settings for \(ssid)"
        case .protocomm(.deviceConnected(let connection)):
            "unit joined \(connection.ssid) as \(connection.ipAddress)"
        case .leftHotspot(let ssid): "left \(ssid)"
        default: nil
        }
    }
}
