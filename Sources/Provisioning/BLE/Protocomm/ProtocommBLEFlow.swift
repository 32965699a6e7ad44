/// ESP protocomm as a ``BLEProvisioningFlow``, joining a Wi-Fi network or attaching to a Thread one. The
/// connection requires no service up front, since firmware may choose its own service UUID; the flow finds
/// the endpoints by their names. Firmware may force encryption, so a refused or unanswered access pairs.
public struct ProtocommBLEFlow: BLEProvisioningFlow {
    public static var bleProtocol: BLEProtocol { .protocomm }

    /// The network the device is to join.
    public enum Network: Sendable {
        case wifi(ProtocommWiFiRequest)
        case thread(ProtocommThreadRequest)
    }

    /// What a run established, by network.
    public enum Outcome: Sendable {
        case wifi(ProtocommBLEOutcome)
        case thread(ProtocommThreadBLEOutcome)
    }

    let network: Network
    let retryPassphrase: (@Sendable () async throws -> Secret?)?
    let keepsBond: Bool
    let provisioner: ProtocommBLEProvisioner
    let progress: ProtocommProgressSink

    /// A flow for `network`; `retryPassphrase` asks for another password after a wrong one, and `keepsBond`
    /// keeps a bond made because the device insisted on pairing.
    public init(
        _ network: Network, retryPassphrase: (@Sendable () async throws -> Secret?)? = nil, keepsBond: Bool = false,
        provisioner: ProtocommBLEProvisioner = ProtocommBLEProvisioner(), progress: @escaping ProtocommProgressSink
    ) {
        self.network = network
        self.retryPassphrase = retryPassphrase
        self.keepsBond = keepsBond
        self.provisioner = provisioner
        self.progress = progress
    }

    public var connectionPolicy: BLEConnectionPolicy {
        BLEConnectionPolicy(requiredServices: [], pairing: .justWorks(keepsBond: keepsBond, whenUnanswered: true))
    }

    public func run(with link: any BLELink, deadline: ContinuousClock.Instant) async throws -> Outcome {
        let (peer, network, provisioner, retry, progress) = (link.peer, network, provisioner, retryPassphrase, progress)
        return try await link.connected(connectionPolicy) { connection in
            switch network {
            case .wifi(let wifi):
                return .wifi(
                    try await provisioner.run(
                        ProtocommBLERequest(wifi: wifi, advertisedServices: peer.serviceUUIDs), on: connection,
                        address: peer.address, deadline: deadline, retryPassphrase: retry, progress: progress))
            case .thread(let thread):
                return .thread(
                    try await provisioner.runThread(
                        thread, advertisedServices: peer.serviceUUIDs, on: connection, address: peer.address,
                        deadline: deadline, progress: progress))
            }
        }
    }
}
