import CryptoPrimitives
public import Protocomm
public import Transports

/// Thread provisioning over BLE: the same endpoints and session as Wi-Fi, then the dataset.
extension ProtocommBLEProvisioner {
    /// Provisions the Thread device on `connection` by `deadline`.
    public func runThread(
        _ request: ProtocommThreadRequest, advertisedServices: [String], on connection: any GATTConnection,
        address: String, deadline: ContinuousClock.Instant, progress: @escaping ProtocommProgressSink
    ) async throws -> ProtocommThreadBLEOutcome {
        let endpoints = try await locateEndpoints(
            on: connection, advertised: advertisedServices, address: address, deadline: deadline)
        var conversation = ProtocommThreadConversation(
            channel: ProtocommChannel(
                transport: ProtocommGATTTransport(connection: connection, endpoints: endpoints),
                peer: .ble(address: address), deadline: deadline),
            request: request, timeouts: timeouts, progress: progress)
        var source = random
        let summary = try await conversation.run(random: &source)
        return ProtocommThreadBLEOutcome(
            endpoints: endpoints, mtu: connection.mtu, deviceVersion: summary.deviceVersion,
            security: summary.security, networks: summary.networks, attachment: summary.attachment,
            timings: conversation.timings)
    }
}

/// What a successful BLE protocomm run with a Thread device established.
public struct ProtocommThreadBLEOutcome: Sendable, Equatable {
    /// The provisioning service and how its endpoints were named.
    public var endpoints: ProtocommGATTEndpoints
    /// The link's ATT MTU.
    public var mtu: Int
    /// What the device said about itself on `proto-ver`.
    public var deviceVersion: ProtocommVersionInfo
    /// The security the session ran.
    public var security: ProtocommSecurityUsed
    /// The Thread networks the device heard, when asked for and the device can scan.
    public var networks: [ProtocommThreadNetwork]?
    /// The network the device attached to, as it reported it.
    public var attachment: ProtocommThreadAttachment
    /// How long each step took, in order.
    public var timings: [ProtocommStepTiming]
}
