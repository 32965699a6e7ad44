import Synchronization
import TestSupport
import Testing

@testable import Provisioning

/// When the first units go out while the lanes' discovery listens: after the settle time, or as soon as
/// every lane heard every waiting unit it may take, and the refresher wakes as the window ends.
@Suite struct BatchListeningWindowTests {
    static let lanes = ["hci0", "hci1", "hci2", "hci3"]
    static let listening = BatchQueue.Listening(settle: .milliseconds(100), unheardAfter: .seconds(1))

    /// A clock that moves only when told.
    final class ManualClock: Sendable {
        let instant = Mutex(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLock { $0 } }
        func advance(_ duration: Duration) { instant.withLock { $0 += duration } }
    }

    static func address(_ index: Int) -> String { "24:0A:C4:00:02:\(String(index, radix: 16, uppercase: true))" }

    @Test(arguments: 0..<200)
    func everyLaneHeardHoldsExactlyWhenEachLaneThatMayTakeAUnitHeardIt(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let now = ContinuousClock.now
        let lanes = Set(Self.lanes.filter { _ in random.below(4) > 0 })
        var sightings = BatchSightings()
        var units: [BatchDevice] = []
        var missing = false
        for index in 0..<random.below(8) {
            let pinned = random.below(5) == 0 ? Self.lanes[random.below(Self.lanes.count)] : nil
            units.append(BatchDevice(address: Self.address(index), lane: pinned, line: index + 1))
            for lane in Self.lanes {
                let mayTake = pinned.map { $0 == lane } ?? true
                switch random.below(6) {
                case 0:
                    // Stale: heard too long ago to count.
                    sightings.note(
                        BatchSighting(lane: lane, address: Self.address(index), rssi: -50),
                        at: now - BatchSightings.freshFor - .milliseconds(1 + random.below(5_000)))
                    if lanes.contains(lane), mayTake { missing = true }
                case 1:
                    if lanes.contains(lane), mayTake { missing = true }
                default:
                    sightings.note(
                        BatchSighting(lane: lane, address: Self.address(index), rssi: -40 - random.below(40)),
                        at: now - .milliseconds(random.below(4_000)))
                }
            }
        }
        #expect(sightings.everyLaneHeard(units, lanes: lanes, now: now) == !missing)
    }

    @Test func theRefresherWakesAsTheSettleAndUnheardTimesEnd() async {
        let clock = ManualClock()
        let queue = BatchQueue(lanes: ["hci0", "hci1"], listening: Self.listening, now: { clock.now })
        #expect(await queue.untilListeningChanges(atMost: .milliseconds(100)) == .milliseconds(100))
        await queue.listening("hci0")
        clock.advance(.milliseconds(30))
        #expect(await queue.untilListeningChanges(atMost: .milliseconds(100)) == .milliseconds(100))
        await queue.listening("hci1")
        clock.advance(.milliseconds(60))
        #expect(await queue.untilListeningChanges(atMost: .milliseconds(100)) == .milliseconds(40))
        clock.advance(.milliseconds(40))
        #expect(await queue.untilListeningChanges(atMost: .milliseconds(100)) == .milliseconds(100))
        clock.advance(.milliseconds(850))
        #expect(await queue.untilListeningChanges(atMost: .milliseconds(100)) == .milliseconds(50))
        clock.advance(.milliseconds(50))
        #expect(await queue.untilListeningChanges(atMost: .milliseconds(100)) == .milliseconds(100))
    }

    /// A queue on two lanes that both listen, holding one unit neither has heard yet.
    static func twoLanesListening(for clock: ManualClock) async -> (BatchQueue, BatchDevice) {
        let queue = BatchQueue(lanes: ["hci0", "hci1"], listening: listening, now: { clock.now })
        let unit = BatchDevice(address: address(1), line: 1)
        await queue.add(unit)
        await queue.listening("hci0")
        await queue.listening("hci1")
        return (queue, unit)
    }

    /// The clock never moves: only hearing the unit on every lane can let it go.
    @Test(.timeLimit(.minutes(1)))
    func aUnitEveryLaneHeardGoesBeforeTheSettleTime() async {
        let clock = ManualClock()
        let (queue, unit) = await Self.twoLanesListening(for: clock)
        await queue.heard(BatchSighting(lane: "hci0", address: Self.address(1), rssi: -70))
        await queue.heard(BatchSighting(lane: "hci1", address: Self.address(1), rssi: -40))
        #expect(await queue.next(for: "hci1")?.device == unit)
    }

    @Test(.timeLimit(.minutes(1)))
    func aUnitOneLaneHasNotHeardWaitsForTheSettleTime() async {
        let clock = ManualClock()
        let (queue, unit) = await Self.twoLanesListening(for: clock)
        await queue.heard(BatchSighting(lane: "hci1", address: Self.address(1), rssi: -40))
        let taken = Task { await queue.next(for: "hci1") }
        for _ in 0..<50 { await Task.yield() }
        #expect(await queue.untouched() == [unit])
        clock.advance(.milliseconds(100))
        await queue.refresh()
        #expect(await taken.value?.device == unit)
        #expect(await queue.untouched().isEmpty)
    }
}
