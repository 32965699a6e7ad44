import CryptoPrimitives
import Protocomm

/// The protocomm conversation that provisions Thread, over any channel: `proto-ver` (the device must
/// list `thread_prov`), security choice, handshake, optional Thread scan, the dataset, and status polls
/// until the device has attached — the steps esp_prov takes with `--dataset_tlvs`.
///
/// Throws only ``ProvisioningError`` and `CancellationError`; releasing the channel is the caller's job.
struct ProtocommThreadConversation {
    var channel: ProtocommChannel
    let request: ProtocommThreadRequest
    let timeouts: ProtocommTimeouts
    let progress: ProtocommProgressSink
    /// How long each step took, in order.
    private(set) var timings: [ProtocommStepTiming] = []

    init(
        channel: ProtocommChannel, request: ProtocommThreadRequest, timeouts: ProtocommTimeouts,
        progress: @escaping ProtocommProgressSink
    ) {
        self.channel = channel
        self.request = request
        self.timeouts = timeouts
        self.progress = progress
    }

    /// What the device said and did.
    struct Summary {
        var deviceVersion: ProtocommVersionInfo
        var security: ProtocommSecurityUsed
        var networks: [ProtocommThreadNetwork]?
        var attachment: ProtocommThreadAttachment
    }

    /// Results fetched per `prov-scan` request, as for Wi-Fi.
    static let scanPageSize: UInt32 = 4
    /// "Detached" answers in a row taken as a failure; esp_prov likewise polls a few more times first.
    static let detachedAnswersBeforeFailure = 3

    /// Runs every step; `random` supplies the handshake's ephemeral secrets.
    mutating func run(random: inout some RandomSource) async throws -> Summary {
        var started = ContinuousClock.now
        let info = try await channel.describeDevice(limit: timeouts.exchange)
        progress(.deviceDescribed(info))
        try info.requireThreadProvisioning()
        let (security, used) = try info.chooseSecurity(request.security)
        progress(.securityChosen(used))
        record(.version, since: &started)
        try await channel.establishSession(security, limit: timeouts.exchange, random: &random)
        progress(.sessionEstablished(used.level))
        record(.session, since: &started)
        let networks = try await listNetworks(info, security: used)
        if networks != nil { record(.scan, since: &started) }
        let phase = ProtocommPhase.session(used)
        _ = try await configure(.setDataset(request.dataset), phase: phase)
        progress(.datasetSent(request.dataset.network))
        _ = try await configure(.applyConfig, phase: phase)
        progress(.datasetApplied)
        record(.configure, since: &started)
        let attachment = try await awaitAttachment()
        record(.connect, since: &started)
        return Summary(deviceVersion: info, security: used, networks: networks, attachment: attachment)
    }

    private mutating func record(_ step: ProtocommStep, since started: inout ContinuousClock.Instant) {
        let now = ContinuousClock.now
        timings.append(ProtocommStepTiming(step: step, duration: now - started))
        started = now
    }

    /// The Thread networks the device hears, when asked for and the device advertises `thread_scan`.
    private mutating func listNetworks(_ info: ProtocommVersionInfo, security: ProtocommSecurityUsed) async throws
        -> [ProtocommThreadNetwork]?
    {
        guard request.listsNetworks else { return nil }
        guard info.has(.threadScan) else {
            progress(.scanUnavailable)
            return nil
        }
        progress(.scanningNetworks)
        let phase = ProtocommPhase.session(security)
        let scanDeadline = ContinuousClock.now + timeouts.scan
        _ = try await scan(.start(blocking: true, channelMask: 0), phase: phase, limit: timeouts.scan)
        var resultCount: UInt32
        while true {
            let step = (deadline: scanDeadline, limit: timeouts.scan)
            guard case .status(let finished, let count) = try await scan(.status, phase: phase, step: step) else {
                throw ProvisioningError.protocommProtocol(
                    .malformedMessage("RespScanThreadStatus"), endpoint: .scan, phase: phase)
            }
            resultCount = count
            if finished { break }
            try await channel.pause(timeouts.statusPollInterval, before: step, endpoint: .scan, phase: phase)
        }
        var networks: [ProtocommThreadNetwork] = []
        while networks.count < Int(resultCount) {
            let page = min(Self.scanPageSize, resultCount - UInt32(networks.count))
            let fetch = ProtocommThreadScanRequest.results(startIndex: UInt32(networks.count), count: page)
            guard case .results(let entries) = try await scan(fetch, phase: phase), !entries.isEmpty else { break }
            networks += entries
        }
        progress(.threadNetworksListed(networks))
        return networks
    }

    private mutating func scan(
        _ command: ProtocommThreadScanRequest, phase: ProtocommPhase, limit: Duration? = nil,
        step: (deadline: ContinuousClock.Instant, limit: Duration)? = nil
    ) async throws -> ProtocommThreadScanResponse {
        let reply = try await channel.exchangeEncrypted(
            command.serializedBytes(), on: .scan, phase: phase, limit: limit ?? timeouts.exchange, step: step)
        do {
            return try command.response(from: reply)
        } catch {
            throw ProvisioningError.protocommProtocol(error, endpoint: .scan, phase: phase)
        }
    }

    /// Polls the Thread state until the device reports attached or failed, within the connect limit.
    private mutating func awaitAttachment() async throws -> ProtocommThreadAttachment {
        let network = request.networkLabel
        let phase = ProtocommPhase.awaitingAttach(network: network)
        let step = (deadline: ContinuousClock.now + timeouts.connect, limit: timeouts.connect)
        let applied = ContinuousClock.now
        var interval: Duration?
        var reportedAttaching = false
        var detachedAnswers = 0
        while true {
            let pause = timeouts.statusPollPause(sinceApply: .now - applied, previous: interval)
            interval = pause
            try await channel.pause(pause, before: step, endpoint: .config, phase: phase)
            guard case .status(let status) = try await configure(.getStatus, phase: phase, step: step) else {
                throw ProvisioningError.protocommProtocol(
                    .malformedMessage("RespGetThreadStatus"), endpoint: .config, phase: phase)
            }
            switch status {
            case .attaching:
                detachedAnswers = 0
                if !reportedAttaching {
                    reportedAttaching = true
                    progress(.deviceAttaching)
                }
            case .attached(let attachment):
                progress(.deviceAttached(attachment))
                return attachment
            case .detached:
                detachedAnswers += 1
                if detachedAnswers >= Self.detachedAnswersBeforeFailure {
                    throw ProvisioningError.protocommThreadAttachFailed(status, network: network)
                }
            case .failed, .unrecognized:
                throw ProvisioningError.protocommThreadAttachFailed(status, network: network)
            }
        }
    }

    private mutating func configure(
        _ command: ProtocommThreadConfigRequest, phase: ProtocommPhase,
        step: (deadline: ContinuousClock.Instant, limit: Duration)? = nil
    ) async throws -> ProtocommThreadConfigResponse {
        let reply = try await channel.exchangeEncrypted(
            command.serializedBytes(), on: .config, phase: phase, limit: timeouts.exchange, step: step)
        do {
            return try command.response(from: reply)
        } catch .failureStatus(let status) {
            throw ProvisioningError.protocommThreadConfigRejected(status, applying: command == .applyConfig)
        } catch {
            throw ProvisioningError.protocommProtocol(error, endpoint: .config, phase: phase)
        }
    }
}
