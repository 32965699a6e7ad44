/// The pacing of status polls after "apply", for Wi-Fi joins and Thread attaches alike: one step
/// bounded by the connect limit, and pauses from ``ProtocommTimeouts/statusPollPause(sinceApply:previous:)``.
struct ProtocommStatusPolling {
    let step: (deadline: ContinuousClock.Instant, limit: Duration)
    private let timeouts: ProtocommTimeouts
    private let applied = ContinuousClock.now
    private var previous: Duration?

    init(timeouts: ProtocommTimeouts) {
        self.timeouts = timeouts
        step = (deadline: applied + timeouts.connect, limit: timeouts.connect)
    }

    /// The pause before the next poll.
    mutating func nextPause() -> Duration {
        let pause = timeouts.statusPollPause(sinceApply: .now - applied, previous: previous)
        previous = pause
        return pause
    }
}
