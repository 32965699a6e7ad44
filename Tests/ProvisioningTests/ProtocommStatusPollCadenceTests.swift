import Provisioning
import TestSupport
import Testing

/// The status-poll cadence after "apply": quick while most joins finish, then backing off to the cap.
@Suite struct ProtocommStatusPollCadenceTests {
    let timeouts = ProtocommTimeouts()

    @Test func pollsStayQuickWithinTheWindow() {
        var previous: Duration?
        var elapsed = Duration.zero
        while elapsed < timeouts.quickStatusPollWindow {
            let pause = timeouts.statusPollPause(sinceApply: elapsed, previous: previous)
            #expect(pause == .milliseconds(100))
            elapsed += pause
            previous = pause
        }
    }

    @Test func afterTheWindowPausesGrowToTheCapAndStayThere() {
        var pauses: [Duration] = []
        var previous: Duration? = .milliseconds(100)
        for _ in 0..<8 {
            let pause = timeouts.statusPollPause(sinceApply: .seconds(4), previous: previous)
            pauses.append(pause)
            previous = pause
        }
        #expect(
            pauses.prefix(4) == [.milliseconds(150), .milliseconds(225), .microseconds(337_500), .milliseconds(500)])
        #expect(pauses.dropFirst(3).allSatisfy { $0 == .milliseconds(500) })
        #expect(zip(pauses, pauses.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test(arguments: [Duration.milliseconds(1), .milliseconds(20), .milliseconds(100), .seconds(5)])
    func noPauseExceedsTheCapOrUndercutsTheQuickInterval(cap: Duration) {
        let timeouts = ProtocommTimeouts(statusPollInterval: cap)
        var random = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let since = Duration.milliseconds(Int64(random.below(10_000)))
            let previous: Duration? = random.below(4) == 0 ? nil : .milliseconds(Int64(random.below(2_000)))
            let pause = timeouts.statusPollPause(sinceApply: since, previous: previous)
            #expect(pause <= cap)
            #expect(pause >= min(timeouts.quickStatusPollInterval, cap))
        }
    }
}
