public import CryptoPrimitives
import Protocomm
public import Transports

/// The SoftAP flow: join the device's hotspot, provision it over protocomm, and put the host back
/// on its previous network, whatever happens in between.
///
/// ```swift
/// let provisioner = SoftAPProvisioner(joiner: try NMSoftAPJoiner()) { network, device in
///     HTTPProtocommTransport(device: device, interface: network.interfaceName)
/// }
/// let outcome = try await provisioner.run(request, deadline: .now + .seconds(120)) { print($0) }
/// ```
public struct SoftAPProvisioner: Sendable {
    /// Makes the transport for one run, once the host is on the hotspot: sockets bind to the
    /// network's interface and talk to the request's device endpoint.
    public typealias TransportFactory =
        @Sendable (JoinedWiFiNetwork, DeviceEndpoint) async throws -> any ProtocommTransport

    let joiner: any WiFiJoiner
    let timeouts: SoftAPTimeouts
    let random: any RandomSource
    let makeTransport: TransportFactory

    /// A flow that joins hotspots with `joiner` and talks protocomm through `makeTransport`;
    /// `random` supplies the handshake's ephemeral keys (inject a seeded source in tests).
    public init(
        joiner: any WiFiJoiner,
        timeouts: SoftAPTimeouts = SoftAPTimeouts(),
        random: any RandomSource = SystemRandomSource(),
        makeTransport: @escaping TransportFactory
    ) {
        self.joiner = joiner
        self.timeouts = timeouts
        self.random = random
        self.makeTransport = makeTransport
    }

    /// Provisions the device, finishing the protocomm steps by `deadline`.
    ///
    /// Leaving the hotspot is not bounded by `deadline`; the joiner's restore limit bounds it.
    /// Throws ``ProvisioningError``, or `CancellationError` once the host's network is restored.
    public func run(
        _ request: SoftAPProvisioningRequest,
        deadline: ContinuousClock.Instant,
        progress: @escaping SoftAPProgressSink
    ) async throws -> SoftAPProvisioningOutcome {
        let credentials = try request.validatedCredentials()
        let joinStarted = ContinuousClock.now
        progress(.joiningHotspot(ssid: request.hotspot.ssid))
        let network = try await join(request.hotspot, deadline: deadline)
        progress(.joinedHotspot(network))
        let joined = ContinuousClock.now
        var timings = [ProtocommStepTiming(step: .join, duration: joined - joinStarted)]
        let result: Result<ProtocommConversation.Summary, any Error>
        do {
            var conversation = try await conversation(
                request, credentials: credentials, on: network, deadline: deadline, progress: progress)
            var source = random
            result = .success(try await conversation.run(random: &source))
            timings += conversation.timings
        } catch {
            result = .failure(error)
        }
        let leaveStarted = ContinuousClock.now
        try await leave(network, after: result, progress: progress)
        timings.append(ProtocommStepTiming(step: .leave, duration: ContinuousClock.now - leaveStarted))
        let session = try result.get()
        return SoftAPProvisioningOutcome(
            hotspot: network, deviceID: network.zhitingDeviceID, deviceVersion: session.deviceVersion,
            security: session.security, networks: session.networks, connection: session.connection, timings: timings)
    }

    /// Joins with the joiner's limits cut to what is left of the run, so the joiner itself stops in
    /// time and restores the host; a join the flow abandoned could leave the host on the hotspot.
    private func join(_ hotspot: SoftAPHotspot, deadline: ContinuousClock.Instant) async throws -> JoinedWiFiNetwork {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { throw ProvisioningError.softAPJoinDeadline(hotspot: hotspot.ssid) }
        var limits = timeouts.join
        limits.scan = min(limits.scan, remaining)
        limits.activation = min(limits.activation, remaining)
        let joinRequest = WiFiJoinRequest(
            ssid: hotspot.ssid, passphrase: hotspot.password?.revealed(), bssid: hotspot.bssid, timeouts: limits)
        do {
            return try await joiner.join(joinRequest)
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw ProvisioningError.softAPJoin(error, hotspot: hotspot)
        }
    }

    private func conversation(
        _ request: SoftAPProvisioningRequest, credentials: ProtocommWiFiCredentials, on network: JoinedWiFiNetwork,
        deadline: ContinuousClock.Instant, progress: @escaping SoftAPProgressSink
    ) async throws -> ProtocommConversation {
        let link = ProtocommPeer.hotspot(device: request.device, interface: network.interfaceName)
        let transport: any ProtocommTransport
        do {
            transport = try await makeTransport(network, request.device)
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw ProvisioningError.protocommExchange(error, endpoint: .protocolVersion, phase: .describing, on: link)
        }
        return ProtocommConversation(
            channel: ProtocommChannel(transport: transport, peer: link, deadline: deadline),
            request: request.protocomm, credentials: credentials, timeouts: timeouts.protocomm,
            progress: { progress(.protocomm($0)) })
    }

    /// Leaves the hotspot however the conversation ended. A failure to restore is the error to
    /// report after a success; after a failure the first error wins and the sink hears of the restore.
    private func leave(
        _ network: JoinedWiFiNetwork, after result: Result<ProtocommConversation.Summary, any Error>,
        progress: @escaping SoftAPProgressSink
    ) async throws {
        progress(.leavingHotspot(ssid: network.ssid))
        do {
            try await joiner.leave(network)
        } catch {
            switch result {
            case .success(let session):
                throw ProvisioningError.softAPRestoreFailed(
                    error, hotspot: network.ssid, connection: session.connection)
            case .failure:
                progress(.restoreFailed(.softAPRestoreFailed(error, hotspot: network.ssid, connection: nil)))
                return
            }
        }
        progress(.leftHotspot(ssid: network.ssid))
    }
}
