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
    /// Times each step; `run` starts it afresh.
    var steps = ProtocommStepClock()
    /// How long each step took, in order.
    var timings: [ProtocommStepTiming] { steps.timings }
    /// Whether the last failed join ended with a `prov-ctrl` reset, so the device takes new credentials.
    var deviceWasReset = false

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
        steps = ProtocommStepClock()
        let (info, used) = try await channel.open(
            security: request.security,
            requirement: { info throws(ProvisioningError) in try info.requireWiFiProvisioning() },
            limit: timeouts.exchange, steps: &steps, progress: progress, random: &random)
        let networks = try await listNetworks(info, security: used)
        if let networks {
            steps.finish(.scan)
            if request.checksNetwork { try request.join.check(networks.map(HeardNetwork.init)) }
        }
        var attempts = 1
        while true {
            try await sendCredentials(security: used)
            steps.finish(.configure)
            do {
                let connection: ProtocommDeviceConnection
                do {
                    connection = try await awaitConnection(security: used)
                } catch let failure as ProvisioningError {
                    throw try await explain(failure, info: info, security: used)
                }
                steps.finish(.connect)
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
}
