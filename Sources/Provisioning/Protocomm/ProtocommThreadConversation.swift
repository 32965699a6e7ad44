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
    /// Times each step; `run` starts it afresh.
    var steps = ProtocommStepClock()
    /// How long each step took, in order.
    var timings: [ProtocommStepTiming] { steps.timings }

    /// What the device said and did.
    struct Summary {
        var deviceVersion: ProtocommVersionInfo
        var security: ProtocommSecurityUsed
        var networks: [ProtocommThreadNetwork]?
        var attachment: ProtocommThreadAttachment
    }

    /// "Detached" answers in a row taken as a failure; esp_prov likewise polls a few more times first.
    static let detachedAnswersBeforeFailure = 3

    /// Runs every step; `random` supplies the handshake's ephemeral secrets.
    mutating func run(random: inout some RandomSource) async throws -> Summary {
        steps = ProtocommStepClock()
        let (info, used) = try await channel.open(
            security: request.security,
            requirement: { info throws(ProvisioningError) in try info.requireThreadProvisioning() },
            limit: timeouts.exchange, steps: &steps, progress: progress, random: &random)
        let networks = try await listNetworks(info, security: used)
        if networks != nil { steps.finish(.scan) }
        let phase = ProtocommPhase.session(used)
        _ = try await configure(.setDataset(request.dataset), phase: phase)
        progress(.datasetSent(request.dataset.network))
        _ = try await configure(.applyConfig, phase: phase)
        progress(.datasetApplied)
        steps.finish(.configure)
        let attachment = try await awaitAttachment()
        steps.finish(.connect)
        return Summary(deviceVersion: info, security: used, networks: networks, attachment: attachment)
    }

    /// The Thread networks the device hears, when asked for and the device advertises `thread_scan`.
    private mutating func listNetworks(_ info: ProtocommVersionInfo, security: ProtocommSecurityUsed) async throws
        -> [ProtocommThreadNetwork]?
    {
        let networks = try await channel.listNetworks(
            wanted: request.listsNetworks, from: info, capability: .threadScan,
            start: ProtocommThreadScanRequest.start(blocking: true, channelMask: 0),
            statusMessage: "RespScanThreadStatus", timeouts: timeouts, security: security, progress: progress)
        if let networks { progress(.threadNetworksListed(networks)) }
        return networks
    }

    /// Polls the Thread state until the device reports attached or failed, within the connect limit.
    private mutating func awaitAttachment() async throws -> ProtocommThreadAttachment {
        let network = request.networkLabel
        let phase = ProtocommPhase.awaitingAttach(network: network)
        var polling = ProtocommStatusPolling(timeouts: timeouts)
        var reportedAttaching = false
        var detachedAnswers = 0
        while true {
            try await channel.pause(polling.nextPause(), before: polling.step, endpoint: .config, phase: phase)
            guard case .status(let status) = try await configure(.getStatus, phase: phase, step: polling.step) else {
                throw ProvisioningError.protocommProtocol(
                    .malformedMessage("RespGetThreadStatus"), endpoint: .config, phase: phase, on: channel.peer)
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
        try await channel.exchange(command, on: .config, phase: phase, limit: timeouts.exchange, step: step) {
            .protocommThreadConfigRejected($0, applying: command == .applyConfig)
        }
    }
}
