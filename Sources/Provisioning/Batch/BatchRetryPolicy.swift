/// Which failures earn another try, and how many tries a unit gets.
///
/// Radio trouble (a connection aborted or lost, a hotspot join that fell over) and plain timeouts are
/// worth retrying, possibly on another adapter; a wrong password or proof of possession, a network the
/// device cannot join, or a unit that is not there would fail the same way again and are final.
public struct BatchRetryPolicy: Sendable, Equatable {
    /// Tries per unit, the first included.
    public var maxAttempts: Int
    /// The pause before a retry, so a transient radio problem can clear.
    public var backoff: Duration

    public init(maxAttempts: Int = 3, backoff: Duration = .milliseconds(500)) {
        self.maxAttempts = max(1, maxAttempts)
        self.backoff = backoff
    }

    /// True when `error` on try number `attempt` earns another try.
    public func retries(_ error: ProvisioningError, afterAttempt attempt: Int) -> Bool {
        attempt < maxAttempts && [.linkFailure, .timeout].contains(error.exitStatus)
    }

    /// True when `error` says the lane itself is unusable (adapter gone, powered off, no permission),
    /// so the unit goes back untouched and the lane stops taking units.
    public func disablesLane(_ error: ProvisioningError) -> Bool {
        error.exitStatus == .hostPrecondition
    }
}
