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
        let info = try await channel.describeDevice(limit: timeouts.exchange)
        progress(.deviceDescribed(info))
        try info.requireWiFiProvisioning()
        let (security, used) = try info.chooseSecurity(request.security)
        progress(.securityChosen(used))
        record(.version, since: &started)
        try await channel.establishSession(security, limit: timeouts.exchange, random: &random)
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
}
