import TestSupport
import Testing
import Transports

@testable import Provisioning

/// A step ends at the earliest of its own limit, an enclosing step's and the handed-down deadline, and says which.
@Suite struct StepLimitTests {
    @Test func theEarliestLimitEndsTheStepAndIsNamed() {
        var random = SplitMix64(seed: 0x57E9_1141)
        let now = ContinuousClock.now
        for _ in 0..<200 {
            let own = Duration.milliseconds(1 + random.below(10_000))
            let run = now + .milliseconds(random.below(10_000))
            let enclosing =
                random.below(3) == 0
                ? nil : (deadline: now + .milliseconds(random.below(10_000)), limit: Duration.seconds(20))
            let limit = StepLimit(own, within: run, enclosing: enclosing, now: now)
            let candidates: [(ContinuousClock.Instant, StepLimit.Ending)] =
                [(now + own, .own(own)), (run, .handedDown)]
                + (enclosing.map { [($0.deadline, .enclosing($0.limit))] } ?? [])
            let earliest = candidates.map(\.0).min()!
            let shown = "own \(own), run \(now.duration(to: run)), enclosing \(String(describing: enclosing))"
            #expect(limit.deadline == earliest, "\(shown)")
            #expect(candidates.contains { $0.0 == earliest && $0.1 == limit.ending }, "\(shown)")
        }
    }

    @Test func aStepWithOneLimitEndsThereAndNamesIt() {
        let now = ContinuousClock.now
        #expect(StepLimit(.seconds(3), now: now) == StepLimit(.seconds(3), within: now + .seconds(4), now: now))
        #expect(StepLimit(.seconds(3), now: now).ending == .own(.seconds(3)))
        #expect(StepLimit(within: now + .seconds(2)).deadline == now + .seconds(2))
        #expect(StepLimit(within: now + .seconds(2)).ending == .handedDown)
    }

    @Test func theEndingIsWordedForTheMessage() {
        #expect(StepLimit.Ending.own(.seconds(30)).endingText == " after 30 s")
        #expect(StepLimit.Ending.enclosing(.milliseconds(1_500)).endingText == " after 1.5 s")
        #expect(StepLimit.Ending.handedDown.endingText == " when the time limit ran out")
    }
}
