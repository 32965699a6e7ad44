/// When one BLE write must be confirmed: its own limit from now, or the whole operation's deadline if
/// that comes first, and which of the two it is, for the message.
struct BluFiWriteDeadline {
    /// Which limit ends the write.
    enum Reason: Equatable {
        /// The step's own limit for one write.
        case step(Duration)
        /// The whole operation's deadline (`--timeout`).
        case overall
    }

    let deadline: ContinuousClock.Instant
    let reason: Reason

    init(limit: Duration, overall: ContinuousClock.Instant, now: ContinuousClock.Instant = .now) {
        let own = now + limit
        (deadline, reason) = own < overall ? (own, .step(limit)) : (overall, .overall)
    }
}
