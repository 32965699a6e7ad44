/// When one step must be over: its own limit from now, the limit of a longer step it is part of, or the
/// deadline handed down by the caller, whichever ends first, and which one that is, so a timeout names the
/// limit that ran out.
///
/// Flows and adapters share it: a flow's step ends at the run's deadline (`--timeout`) or its own limit, and
/// an adapter's call ends at the deadline the flow handed down or the adapter's own limit.
public struct StepLimit: Sendable, Equatable {
    /// The limit that ends the step.
    public enum Ending: Sendable, Equatable {
        /// The step's own limit, such as one write's or one request's.
        case own(Duration)
        /// The limit of a longer step this one is part of, such as the connect limit while polling.
        case enclosing(Duration)
        /// The deadline the caller handed down: for a flow, the run's (`--timeout`).
        case handedDown
    }

    public let deadline: ContinuousClock.Instant
    public let ending: Ending

    /// The earliest of `limit` from `now`, the `enclosing` step's deadline and the handed-down `deadline`.
    public init(
        _ limit: Duration, within deadline: ContinuousClock.Instant,
        enclosing: (deadline: ContinuousClock.Instant, limit: Duration)? = nil, now: ContinuousClock.Instant = .now
    ) {
        var earliest = (now + limit, Ending.own(limit))
        if deadline < earliest.0 { earliest = (deadline, .handedDown) }
        if let enclosing, enclosing.deadline < earliest.0 {
            earliest = (enclosing.deadline, .enclosing(enclosing.limit))
        }
        (self.deadline, ending) = earliest
    }

    /// Only the step's own `limit` from `now`: nothing was handed down.
    public init(_ limit: Duration, now: ContinuousClock.Instant = .now) {
        deadline = now + limit
        ending = .own(limit)
    }

    /// Only the handed-down `deadline`: the step has no limit of its own.
    public init(within deadline: ContinuousClock.Instant) {
        self.deadline = deadline
        ending = .handedDown
    }

    /// What is left, at least a millisecond, so a call given it as its timeout still gets a positive one.
    public var remaining: Duration { max(ContinuousClock.now.duration(to: deadline), .milliseconds(1)) }

    public var hasPassed: Bool { ContinuousClock.now >= deadline }
}
