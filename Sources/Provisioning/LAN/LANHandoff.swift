import CryptoPrimitives
import Logging
import Transports
import ZhitingLAN

/// The LAN hand-off flow: find the device, exchange keys, read its info, give it the cloud server,
/// and accept only a reply that echoes server and port.
public struct LANHandoff: Sendable {
    let setup: LANFlowSetup

    /// A flow with the link, timeouts, framing and randomness of `setup`.
    public init(_ setup: LANFlowSetup) {
        self.setup = setup
    }

    /// Hands the target device to `request.server`, finishing by `deadline`.
    public func run(
        _ request: LANHandoffRequest,
        deadline: ContinuousClock.Instant,
        progress: @escaping LANProgressSink
    ) async throws(ProvisioningError) -> LANHandoffResult {
        let device = try await locate(request.target, deadline: deadline, progress: progress)
        var source = setup.random
        var client = ZhitingLANClient(
            deviceID: device.id,
            sessionKey: ZhitingSessionKey.random(using: &source),
            goal: .assignServer(request.assignment),
            framing: setup.framing
        )
        let conversation = LANConversation(
            channel: setup.channel, device: device, timeouts: setup.timeouts, progress: progress)
        let outcome = try await conversation.run(&client, until: deadline)
        guard let info = outcome.info, let echo = outcome.echo else {
            throw ProvisioningError.lanSilence(in: client.phase, of: device, evidence: LANSilenceEvidence())
        }
        return LANHandoffResult(device: device, info: info, echo: echo)
    }

    /// Hellos until the wanted device answers; any device will do only for a unicast target.
    private func locate(
        _ target: LANTarget,
        deadline: ContinuousClock.Instant,
        progress: @escaping LANProgressSink
    ) async throws(ProvisioningError) -> LANDevice {
        guard target.deviceID != nil || target.address != nil else {
            throw ProvisioningError(
                .invalidOption,
                "A broadcast hand-off needs the device ID.",
                hint: "Pass --device-id (from `ztprov discover`), or --device-address to ask one device directly."
            )
        }
        let beacon = LANHelloBeacon(
            channel: setup.channel, target: target, timeouts: setup.timeouts, progress: progress)
        var found: LANDevice?
        var others: [LANDevice] = []
        let started = ContinuousClock.now
        _ = try await beacon.run(until: min(started + setup.timeouts.locate, deadline)) { device in
            if target.deviceID == nil || device.id == target.deviceID {
                found = device
                progress(.deviceAnswered(device))
                return true
            }
            if !others.contains(device) { others.append(device) }
            return false
        }
        guard let found else {
            throw ProvisioningError.lanNotFound(target, within: ContinuousClock.now - started, others: others)
        }
        return found
    }
}
