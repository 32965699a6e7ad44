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
        // After an aborted connect BlueZ may still bring the link up, and a retried `Connect` then "returns
        // immediately without any effect" (connectedhomeip PR #18264; bleak PR #1255): disconnect first.
        case .connectionAborted, .timedOut, .linkLost, .notConnected, .failed:
            return .retry(after: transientBackoff, reset: .disconnect)
        // `InProgress` means an earlier `Connect` is stuck (possibly a crashed client's), which BlueZ clears only
        // after minutes (bleak-retry-connector #226); a failed GATT discovery still sets `ServicesResolved`, with
        // no services (BlueZ 5.66 src/device.c `device_svc_resolved`; bleak#1806), and `Cache=always` serves a
        // stale layout after a firmware change. Removing the device and discovering it again clears all three.
        case .inProgress, .servicesMissing, .doesNotExist:
            return .retry(after: staleStateBackoff, reset: .removeDevice)
        default:
            return .giveUp
        }
    }
}
