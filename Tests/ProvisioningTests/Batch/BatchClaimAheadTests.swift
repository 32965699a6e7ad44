import FoundationEssentials
import Provisioning
import Records
import Synchronization
import TestSupport
import Testing

@testable import Provisioning

/// A lane takes and claims its next unit while the current one runs, so the claim's round trip to the records
/// is not on a unit's critical path; only units no idle lane takes are taken ahead, and a unit taken ahead
/// and not tried goes back with its claim released.
@Suite struct BatchClaimAheadTests {
    @Test(.timeLimit(.minutes(1)))
    func theNextUnitIsClaimedWhileTheCurrentOneRuns() async throws {
        let store = InMemoryRecordStore()
        let units = ScriptedBatch.devices(4)
        let runner = BatchRunner(
            settings: BatchRunner.Settings(batchID: "b", station: "s", path: .ble, lanes: ["hci0"]), store: store,
            events: { _ in }, storeFailure: { _ in ScriptedBatch.linkLost },
            attempt: { context in
                // The lane has until this attempt ends to claim the next unit; a lane that claims only after
                // recording would keep this attempt waiting for it until the bound below, and claim later.
                guard let index = units.firstIndex(where: { $0.key == context.device.key }), index + 1 < units.count
                else { return }
                for _ in 0..<500 where await store.claims[units[index + 1].key] == nil {
                    try await Task.sleep(for: .milliseconds(10))
                }
            })
        let summary = try await runner.run(units.stream)
        #expect(summary.provisioned == 4)
        let keys = units.map(\.key)
        #expect(
            await store.operations == [
                "claim \(keys[0])", "claim \(keys[1])", "append \(keys[0])", "claim \(keys[2])", "append \(keys[1])",
                "claim \(keys[3])", "append \(keys[2])", "append \(keys[3])",
            ])
    }

    @Test(.timeLimit(.minutes(1)))
    func aLaneWaitingAheadGetsOnlyWhatIdleLanesLeave() async throws {
        let queue = BatchQueue(lanes: ["hci0", "hci1"])
        let units = ScriptedBatch.devices(2)
        let busy = Task { await queue.next(for: "hci0", ahead: true) }
        while await queue.waiting.isEmpty { await Task.yield() }
        let idle = Task { await queue.next(for: "hci1") }
        while await queue.waiting.count < 2 { await Task.yield() }
        await queue.add(units[0])
        #expect(await idle.value?.device.key == units[0].key)
        #expect(await queue.waiting.map(\.lane) == ["hci0"])
        await queue.add(units[1])
        #expect(await busy.value?.device.key == units[1].key)
    }

    @Test(.timeLimit(.minutes(1)))
    func ctrlCGivesBackTheUnitsTakenAheadWithTheirClaims() async throws {
        let started = AsyncStream<Void>.makeStream()
        let batch = ScriptedBatch(work: .seconds(30), onAttempt: { _ in started.continuation.yield() })
        let units = ScriptedBatch.devices(8)
        let run = Task { try await batch.runner(lanes: ["hci0", "hci1"]).run(units.stream) }
        var iterator = started.stream.makeAsyncIterator()
        _ = await iterator.next()
        _ = await iterator.next()
        // Both lanes claimed their next unit while the first ones run.
        while await batch.store.claims.count < 4 { try await Task.sleep(for: .milliseconds(5)) }
        run.cancel()
        let summary = try await run.value
        #expect(summary.interrupted && summary.untouched == 8)
        #expect(await batch.store.all.count == 2)
        #expect(await batch.store.claims.isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func aLaneThatStopsGivesBackTheUnitItTookAhead() async throws {
        let store = InMemoryRecordStore()
        let units = ScriptedBatch.devices(4)
        let hci9Failed = Mutex(false)
        let runner = BatchRunner(
            settings: BatchRunner.Settings(batchID: "b", station: "s", path: .ble, lanes: ["hci9", "hci0"]),
            store: store, events: { _ in }, storeFailure: { _ in ScriptedBatch.linkLost },
            attempt: { context in
                // hci9 fails once it holds its next unit too; hci0 takes no more units until then.
                for _ in 0..<1000 where !hci9Failed.withLock({ $0 }) {
                    if await store.claims.values.filter({ $0.lane == "hci9" }).count >= 2 { break }
                    try await Task.sleep(for: .milliseconds(5))
                }
                guard context.lane == "hci9" else { return }
                hci9Failed.withLock { $0 = true }
                throw ScriptedBatch.adapterOff
            })
        let summary = try await runner.run(units.stream)
        #expect(summary.provisioned == 4)
        let records = await store.all
        #expect(records.count == 4 && records.allSatisfy { $0.adapter == "hci0" && $0.succeeded })
        #expect(await store.claims.values.allSatisfy { $0.provisioned && $0.lane == "hci0" })
    }

    /// A unit claimed ahead waits for the current one; held past a third of its lifetime (when a running attempt
    /// would renew it), its claim is renewed before its own attempt starts.
    @Test(.timeLimit(.minutes(1)))
    func aClaimHeldAheadPastAThirdOfItsLifetimeIsRenewedBeforeItsAttempt() async throws {
        let store = InMemoryRecordStore()
        let units = ScriptedBatch.devices(2)
        let clock = MovableClocks()
        let runner = BatchRunner(
            settings: BatchRunner.Settings(
                batchID: "b", station: "s", path: .ble, lanes: ["hci0"], claimLifetime: .seconds(30)),
            store: store, events: { _ in }, storeFailure: { _ in ScriptedBatch.linkLost },
            monotonicClock: { clock.monotonic },
            attempt: { context in
                guard context.device.key == units[0].key else { return }
                while await store.claims[units[1].key] == nil { try await Task.sleep(for: .milliseconds(5)) }
                clock.advance(by: .seconds(11))
            })
        let summary = try await runner.run(units.stream)
        #expect(summary.provisioned == 2)
        let keys = units.map(\.key)
        #expect(
            await store.operations == [
                "claim \(keys[0])", "claim \(keys[1])", "append \(keys[0])", "renew \(keys[1])", "append \(keys[1])",
            ])
    }

    /// A claim taken ahead that ran out while the current unit ran, and that another station then took, is not
    /// tried on: the unit is claimed anew, passed over while the other station holds it, and tried once that
    /// claim ran out in turn.
    @Test(.timeLimit(.minutes(1)))
    func aClaimHeldAheadThatRanOutAndWasTakenElsewhereIsPassedOver() async throws {
        let clock = MovableClocks()
        let store = InMemoryRecordStore(clock: { clock.wall })
        let units = ScriptedBatch.devices(2)
        let events = Mutex<[BatchEvent]>([])
        let otherStation = UnitClaim(
            deviceKey: units[1].key, holder: "other", station: "t", lane: "hci7", lifetime: .seconds(30))
        let runner = BatchRunner(
            settings: BatchRunner.Settings(
                batchID: "b", station: "s", path: .ble, lanes: ["hci0"], claimLifetime: .seconds(30),
                claimRecheck: .milliseconds(10)),
            store: store, events: { event in events.withLock { $0.append(event) } },
            storeFailure: { _ in ScriptedBatch.linkLost }, monotonicClock: { clock.monotonic },
            attempt: { context in
                guard context.device.key == units[0].key else { return }
                while await store.claims[units[1].key] == nil { try await Task.sleep(for: .milliseconds(5)) }
                clock.advance(by: .seconds(31))
                #expect(await store.claim(otherStation, evenIfProvisioned: false) == .claimed)
            })
        let run = Task { try await runner.run(units.stream) }
        while !events.withLock({ $0.contains { if case .passedOver = $0 { true } else { false } } }) {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(await store.claims[units[1].key]?.holder == "other")
        clock.advance(by: .seconds(31))
        let summary = try await run.value
        #expect(summary.provisioned == 2 && summary.passedOver == 1)
        let operations = await store.operations
        let (first, second) = (units[0].key, units[1].key)
        // Ours ahead, the other station's, our record, the renewal refused, the claim asked anew and refused.
        #expect(
            Array(operations.prefix(6)) == [
                "claim \(first)", "claim \(second)", "claim \(second)", "append \(first)", "renew \(second)",
                "claim \(second)",
            ], "\(operations)")
        #expect(operations.last == "append \(second)", "\(operations)")
        #expect(await store.all.filter { $0.deviceKey == second }.count == 1)
    }
}

/// The wall and monotonic clocks as they run, which a test can also move ahead, both together.
private final class MovableClocks: Sendable {
    private let offset = Mutex<Duration>(.zero)

    var monotonic: ContinuousClock.Instant { .now + offset.withLock { $0 } }
    var wall: Date {
        let (seconds, attoseconds) = offset.withLock { $0 }.components
        return Date().addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }

    func advance(by duration: Duration) { offset.withLock { $0 += duration } }
}
