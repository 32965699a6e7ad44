public import BluFi
public import CryptoPrimitives
public import Logging
public import Records
public import Transports

/// `--security auto` against firmware on BluFi 1.4 that kept the V1 security callbacks: the version
/// says V2, the device rejects V2's parameters (DH_PARAM_ERROR), and only V1 works. The device's
/// negotiation state after such an error is the firmware's own, so V1 runs on a fresh connection.
extension BluFiProvisioner {
    /// Runs the flow over a connection `connect` opens; in automatic mode, when the device rejected V2,
    /// reports ``BluFiProgress/securityFellBack(from:to:reason:)`` and runs it once more with V1 over
    /// a second connection. A fixed scheme never falls back.
    ///
    /// `connect` opens a connection, hands it to the flow it is given, and closes it on every exit path.
    public static func runFallingBack(
        _ settings: WiFiSettings,
        security: BluFiSecurityChoice = .automatic,
        timeouts: BluFiTimeouts = BluFiTimeouts(),
        random: any RandomSource = SystemRandomSource(),
        minimumSecurity: SecurityLevel = .none,
        logger: Logger,
        deadline: ContinuousClock.Instant,
        progress: @escaping BluFiProgressSink,
        connect: (_ flow: @escaping @Sendable (any GATTConnection) async throws -> BluFiProvisioningOutcome)
            async throws
            -> BluFiProvisioningOutcome
    ) async throws -> BluFiProvisioningOutcome {
        do {
            return try await connect { connection in
                var flow = BluFiProvisioner(
                    connection: connection, security: security, timeouts: timeouts, random: random, logger: logger)
                flow.reportsRejectedV2 = true
                flow.minimumSecurity = minimumSecurity
                return try await flow.run(settings, deadline: deadline, progress: progress)
            }
        } catch let rejected as V2Rejected {
            progress(.securityFellBack(from: .v2, to: .v1, reason: rejected.error.message))
            var outcome = try await connect { connection in
                var flow = BluFiProvisioner(
                    connection: connection, security: .fixed(.v1), timeouts: timeouts, random: random, logger: logger)
                flow.minimumSecurity = minimumSecurity
                return try await flow.run(settings, deadline: deadline, progress: progress)
            }
            outcome.rejectedScheme = .v2
            return outcome
        }
    }
}

/// The device refused the V2 parameters automatic security chose; carries the error a run without
/// fallback reports.
struct V2Rejected: Error {
    let error: ProvisioningError
}
