/// When one step of a flow must be over: its own limit from now, the limit of a longer step it is part of,
/// or the run's deadline, whichever ends first, and which one that is, so a timeout names the limit that
/// ran out.
struct StepLimit: Sendable, Equatable {
    /// The limit that ends the step.
    enum Ending: Sendable, Equatable {
        /// The step's own limit, such as one write's or one request's.
        case own(Duration)
        /// The limit of a longer step this one is part of, such as the connect limit while polling.
        case enclosing(Duration)
        /// The run's deadline (`--timeout`).
        case run

        /// When a wait this limit ended gave up, as words that follow what was awaited: " after 30 s" or
        /// " when the time limit ran out".
        var endingText: String {
            switch self {
            case .own(let duration), .enclosing(let duration): " after \(secondsText(duration))"
            case .run: " when the time limit ran out"
            }
        }
    }

    let deadline: ContinuousClock.Instant
    let ending: Ending

    /// The earliest of `limit` from `now`, the `enclosing` step's deadline and the `run`'s deadline.
    init(
        _ limit: Duration, run: ContinuousClock.Instant,
        enclosing: (deadline: ContinuousClock.Instant, limit: Duration)? = nil, now: ContinuousClock.Instant = .now
    ) {
        var earliest = (now + limit, Ending.own(limit))
        if run < earliest.0 { earliest = (run, .run) }
        if let enclosing, enclosing.deadline < earliest.0 {
            earliest = (enclosing.deadline, .enclosing(enclosing.limit))
        }
        (deadline, ending) = earliest
    }
}
