/// How connect failures are retried: which errors are worth another attempt, what to reset first, how long to
/// back off, and how many attempts in all (bleak-retry-connector's classes, connectedhomeip's attempt count).
public struct BlueZRetryPolicy: Sendable, Hashable {
    /// What to clear before the next attempt.
    public enum Reset: Sendable, Hashable {
        /// `Disconnect`, then wait for `Connected=false`.
        case disconnect
        /// `Disconnect`, `RemoveDevice`, and discover the device again.
        case removeDevice
    }

    /// What to do after a failed attempt.
    public enum Decision: Sendable, Hashable {
        /// Reset, wait, and try again.
        case retry(after: Duration, reset: Reset)
        /// Report the error.
        case giveUp
    }

    /// Attempts in all, the first included.
    public var maximumAttempts: Int
    /// Back-off after a transient failure (aborted connect, timeout, link lost while resolving).
    public var transientBackoff: Duration
    /// Back-off after stale state was cleared (`InProgress`, missing services, evicted device).
    public var staleStateBackoff: Duration

    /// The default: 4 attempts, 0.25 s after transient failures, 0.5 s after clearing stale state.
    public init(
        maximumAttempts: Int = 4, transientBackoff: Duration = .milliseconds(250),
        staleStateBackoff: Duration = .milliseconds(500)
    ) {
        self.maximumAttempts = maximumAttempts
        self.transientBackoff = transientBackoff
        self.staleStateBackoff = staleStateBackoff
    }

    /// Decides after attempt number `attempt` (1-based) failed with `error`.
    public func decision(after error: BlueZError, attempt: Int) -> Decision {
        guard attempt < maximumAttempts else { return .giveUp }
        switch error {
        case .connectionAborted, .timedOut, .linkLost, .notConnected, .failed:
            return .retry(after: transientBackoff, reset: .disconnect)
        case .inProgress, .servicesMissing, .doesNotExist:
            return .retry(after: staleStateBackoff, reset: .removeDevice)
        default:
            return .giveUp
        }
    }
}
