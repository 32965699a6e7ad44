import CryptoPrimitives
import Protocomm

/// The protocomm conversation that provisions Wi-Fi, over any channel: `proto-ver`, security choice,
/// handshake, optional scan, credentials, and status polls until the device has joined.
///
/// Throws only ``ProvisioningError`` and `CancellationError`; releasing the channel is the caller's job.
struct ProtocommConversation {
    var channel: ProtocommChannel
    let request: ProtocommWiFiRequest
    /// What "set config" sends; a retry after a failed join replaces it.
    var credentials: ProtocommWiFiCredentials
    let timeouts: ProtocommTimeouts
    let progress: ProtocommProgressSink
    /// How long each step took, in order.
    private(set) var timings: [ProtocommStepTiming] = []
    /// Whether the last failed join ended with a `prov-ctrl` reset, so the device takes new credentials.
    var deviceWasReset = false

    init(
        channel: ProtocommChannel, request: ProtocommWiFiRequest, credentials: ProtocommWiFiCredentials,
        timeouts: ProtocommTimeouts, progress: @escaping ProtocommProgressSink
    ) {
        self.channel = channel
        self.request = request
        self.credentials = credentials
        self.timeouts = timeouts
        self.progress = progress
    }

    /// What the device said and did.
    struct Summary {
        var deviceVersion: ProtocommVersionInfo
        var security: ProtocommSecurityUsed
        var networks: [ProtocommWiFiNetwork]?
        var connection: ProtocommDeviceConnection
        /// How many times credentials were sent: one, plus one for each retry after a reset.
        var credentialAttempts = 1
    }

    /// Where new credentials come from after the device failed to join and `prov-ctrl` reset it; `nil`
    /// (or a provider that has none) ends the run with the join failure.
    typealias RetryCredentials = @Sendable (_ failure: ProvisioningError) async throws -> ProtocommWiFiCredentials?

    /// Runs every step; `random` supplies the handshake's ephemeral secrets.
    mutating func run(random: inout some RandomSource, retry: RetryCredentials? = nil) async throws -> Summary {
        var started = ContinuousClock.now
        let info = try await describeDevice()
        progress(.deviceDescribed(info))
        let (security, used) = try chooseSecurity(info)
        progress(.securityChosen(used))
        record(.version, since: &started)
        try await establishSession(security, random: &random)
        progress(.sessionEstablished(used.level))
        record(.session, since: &started)
        let networks = try await listNetworks(info, security: used)
        if networks != nil { record(.scan, since: &started) }
        var attempts = 1
        while true {
            try await sendCredentials(security: used)
            record(.configure, since: &started)
            do {
                let connection = try await awaitConnection(security: used)
                record(.connect, since: &started)
                return Summary(
                    deviceVersion: info, security: used, networks: networks, connection: connection,
                    credentialAttempts: attempts)
            } catch let failure as ProvisioningError where deviceWasReset {
                guard attempts < Self.maximumCredentialAttempts, let retry,
                    let next = try await retry(failure)
                else { throw failure }
                credentials = next
                attempts += 1
                progress(.retryingCredentials(attempt: attempts))
            }
        }
    }

    /// Tries with credentials, the first included, before the join failure stands.
    static let maximumCredentialAttempts = 3

    private mutating func record(_ step: ProtocommStep, since started: inout ContinuousClock.Instant) {
        let now = ContinuousClock.now
        timings.append(ProtocommStepTiming(step: step, duration: now - started))
        started = now
    }

    /// Any non-empty body will do; the official apps send `ESP`.
    private func describeDevice() async throws -> ProtocommVersionInfo {
        let reply = try await channel.exchangePlain(
            Array("ESP".utf8), on: .protocolVersion, phase: .describing, limit: timeouts.exchange)
        do {
            return try ProtocommVersionInfo(responseBody: reply)
        } catch {
            throw ProvisioningError.protocommProtocol(error, endpoint: .protocolVersion, phase: .describing)
        }
    }

    private func chooseSecurity(_ info: ProtocommVersionInfo) throws(ProvisioningError)
        -> (ProtocommSecurity, ProtocommSecurityUsed)
    {
        let options = request.security
        let security: ProtocommSecurity
        do {
            security = try info.security(level: options.level, patch: options.patch, credentials: options.credentials)
        } catch .missingCredentials(let level) {
            throw .protocommCredentialsMissing(level)
        } catch .unsupportedSecurityVersion(let version) {
            throw .protocommUnsupportedSecurity(version: version)
        } catch {
            throw .protocommProtocol(error, endpoint: .protocolVersion, phase: .describing)
        }
        let patch: ProtocommSecurity2Patch? = if case .security2(_, _, let patch) = security { patch } else { nil }
        let provesPoP =
            if case .security1(let proofOfPossession) = security { !proofOfPossession.isEmpty } else { false }
        let used = ProtocommSecurityUsed(
            level: security.level, patch: patch, isAutomatic: options.level == nil, usesProofOfPossession: provesPoP)
        return (security, used)
    }

    /// The handshake loop: post to `prov-session` until the core hands over the cipher.
    private mutating func establishSession(
        _ security: ProtocommSecurity, random: inout some RandomSource
    ) async throws {
        var session: ProtocommSession
        do {
            session = try ProtocommSession(security: security, random: &random)
        } catch {
            throw ProvisioningError.protocommInvalidSRPUsername(error)
        }
        var next = session.start()
        while true {
            let phase = ProtocommPhase.handshake(security.level, awaitingVerdict: session.isAwaitingVerdict)
            let reply = try await channel.exchangePlain(next, on: .session, phase: phase, limit: timeouts.exchange)
            let step: ProtocommSessionStep
            do {
                step = try session.receive(reply)
            } catch {
                throw ProvisioningError.protocommProtocol(error, endpoint: .session, phase: phase)
            }
            switch step {
            case .send(let request):
                next = request
            case .established(let cipher):
                channel.cipher = cipher
                return
            }
        }
    }
}

extension ProvisioningError {
    /// The only way building a client session fails is an SRP username out of range.
    fileprivate static func protocommInvalidSRPUsername(_ error: ProtocommError) -> ProvisioningError {
        ProvisioningError(
            .softAPCredentialsMissing, "The SRP username must be 1 to 65535 bytes long.",
            hint: "Check --srp-username.", detail: "\(error)")
    }
}
