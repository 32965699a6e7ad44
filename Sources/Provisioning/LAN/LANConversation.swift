import Logging
import Transports
import ZhitingLAN

/// Drives one ``ZhitingLANClient`` over the LAN: sends its requests to the device, resends them
/// when a reply is overdue, and feeds it only datagrams from the device's own address and port.
struct LANConversation {
    let channel: LANChannel
    let device: LANDevice
    let timeouts: LANTimeouts
    let progress: LANProgressSink

    /// What a finished conversation learned.
    struct Outcome {
        var info: ZhitingDeviceInfo?
        /// The confirmed server, when the client's goal was to assign one.
        var echo: ZhitingServerEcho?
    }

    /// Runs `client` until it finishes.
    func run(_ client: inout ZhitingLANClient, until deadline: ContinuousClock.Instant) async throws(ProvisioningError)
        -> Outcome
    {
        var info: ZhitingDeviceInfo?
        var attempt = 1
        var evidence = LANSilenceEvidence()
        try await send(client.start(), client.phase)
        var attemptDeadline = min(ContinuousClock.now + timeouts.replyWait, deadline)
        while true {
            guard let datagram = try await channel.receive(until: attemptDeadline) else {
                guard attempt < timeouts.attempts, ContinuousClock.now < deadline, let pending = client.pendingRequest
                else { throw ProvisioningError.lanSilence(in: client.phase, of: device, evidence: evidence) }
                attempt += 1
                progress(.requestResent(device.id, attempt: attempt))
                try await send(pending, client.phase)
                attemptDeadline = min(ContinuousClock.now + timeouts.replyWait, deadline)
                continue
            }
            guard datagram.source == device.endpoint else {
                evidence.noteForeign(datagram.source, device: device, logger: channel.logger)
                continue
            }
            let step: ZhitingLANClient.Step
            do {
                step = try client.receivedDatagram(datagram.bytes)
            } catch {
                throw ProvisioningError.lanProtocol(error, device: device)
            }
            switch step {
            case .ignored(let reason):
                evidence.noteIgnored(reason, logger: channel.logger)
            case .tokenReceived(let next):
                progress(.tokenReceived(device.id))
                try await send(next, client.phase)
                (attempt, evidence) = (1, LANSilenceEvidence())
                attemptDeadline = min(ContinuousClock.now + timeouts.replyWait, deadline)
            case .infoReceived(let reported, let next):
                info = reported
                progress(.infoReceived(device.id, reported))
                guard let next else { return Outcome(info: info) }
                if case .assignServer(let assignment) = client.goal {
                    progress(.serverRequested(device.id, server: assignment.server, port: assignment.port))
                }
                try await send(next, client.phase)
                (attempt, evidence) = (1, LANSilenceEvidence())
                attemptDeadline = min(ContinuousClock.now + timeouts.replyWait, deadline)
            case .serverConfirmed(let echo):
                progress(.serverConfirmed(device.id, echo))
                return Outcome(info: info, echo: echo)
            }
        }
    }

    private func send(_ bytes: [UInt8], _ phase: ZhitingLANClient.Phase) async throws(ProvisioningError) {
        let what =
            switch phase {
            case .awaitingToken: "token request"
            case .awaitingInfo: "get_prop.info request"
            default: "set_prop.server request"
            }
        try await channel.send(bytes, to: .unicast(device.endpoint), what: what)
    }
}

/// What arrived while the device stayed silent, so the final error can say "it answered, but
/// wrongly" (a protocol mismatch) rather than just "no reply".
struct LANSilenceEvidence {
    private(set) var unusableReplies: [ZhitingLANClient.IgnoredDatagram] = []
    private(set) var wrongPortSources: Set<DatagramEndpoint> = []

    mutating func noteIgnored(_ reason: ZhitingLANClient.IgnoredDatagram, logger: Logger) {
        logger.debug("ignored a datagram from the device: \(reason)")
        if reason.isUnusableReplyFromTarget { unusableReplies.append(reason) }
    }

    mutating func noteForeign(_ source: DatagramEndpoint, device: LANDevice, logger: Logger) {
        logger.debug("ignored a datagram from \(source): not \(device.endpoint)")
        if source.address == device.endpoint.address { wrongPortSources.insert(source) }
    }
}
