/// Times the consecutive steps of a protocomm conversation: each step runs from the end of the one before,
/// the first from when the clock was made.
struct ProtocommStepClock {
    /// How long each finished step took, in order.
    private(set) var timings: [ProtocommStepTiming] = []
    private var started = ContinuousClock.now

    mutating func finish(_ step: ProtocommStep) {
        let now = ContinuousClock.now
        timings.append(ProtocommStepTiming(step: step, duration: now - started))
        started = now
    }
}
