import Foundation
import Provisioning
import Records
import Synchronization
import TestSupport
import Testing

/// Stations sharing one store claim each unit before they try it, so no unit is provisioned twice.
@Suite struct BatchClaimTests {
    @Test(.timeLimit(.minutes(1)))
    func twoStationsOnOneStoreProvisionEachUnitOnce() async throws {
        let store = InMemoryRecordStore()
        let stations = ["station-a", "station-b"].map { ($0, ScriptedBatch(store: store)) }
        let units = ScriptedBatch.devices(12)
        let summaries = try await withThrowingTaskGroup(of: BatchSummary.self) { group in
            for (name, batch) in stations {
                group.addTask { try await batch.runner(lanes: ["hci0", "hci1"], station: name).run(units.stream) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let attempted = stations.flatMap { $0.1.watch.withLock { $0.attempts.map(\.key) } }
        #expect(attempted.sorted() == units.map(\.key).sorted())
        let records = await store.all
        #expect(records.count == units.count && records.allSatisfy(\.succeeded))
        #expect(summaries.map(\.provisioned).reduce(0, +) == units.count)
        #expect(summaries.map(\.skipped).reduce(0, +) == units.count)
        #expect(summaries.allSatisfy { $0.failed == 0 })
    }

    /// A station that died mid-attempt leaves its claim: the unit is passed over (an event, not a record)
    /// until the claim runs out, then taken.
    @Test(.timeLimit(.minutes(1)))
    func aDeadStationsUnitIsPassedOverUntilItsClaimRunsOut() async throws {
        let store = InMemoryRecordStore()
        let units = ScriptedBatch.devices(3)
        let dead = UnitClaim(
            deviceKey: units[1].key, holder: "batch-gone", station: "station-gone", lane: "hci7",
            lifetime: .seconds(600))
        #expect(await store.claim(dead, evenIfProvisioned: false) == .claimed)
        let batch = ScriptedBatch(store: store)
        // The claim ends once the unit has been passed over (a lifetime that ran out, as far as the lane can
        // tell): a short lifetime instead would race a busy test process.
        let ending = Task {
            while !batch.watch.withLock({ $0.events.contains { if case .passedOver = $0 { true } else { false } } }) {
                try await Task.sleep(for: .milliseconds(10))
            }
            await store.release(dead)
        }
        let summary = try await batch.runner(lanes: ["hci0"]).run(units.stream)
        try await ending.value
        #expect(summary.provisioned == 3 && summary.passedOver == 1 && summary.failed == 0)
        let passedOver = batch.watch.withLock { watch in
            watch.events.compactMap { event -> (String, UnitClaimHeld)? in
                if case .passedOver(_, let unit, let holder) = event { return (unit.key, holder) }
                return nil
            }
        }
        #expect(passedOver.map(\.0) == [units[1].key])
        #expect(passedOver.first.map { $0.1.station == "station-gone" && $0.1.lane == "hci7" } == true)
        let records = await store.all
        #expect(records.map(\.deviceKey) == [units[0].key, units[2].key, units[1].key])
        #expect(records.allSatisfy { $0.station == "station-a" && $0.succeeded })
    }

    /// An attempt slower than the claim's lifetime renews it: a second station meanwhile passes the unit over
    /// and, once it is provisioned, skips it.
    @Test(.timeLimit(.minutes(1)))
    func aSlowAttemptKeepsItsClaim() async throws {
        let store = InMemoryRecordStore()
        let units = ScriptedBatch.devices(1)
        let (started, startedInput) = AsyncStream<Void>.makeStream()
        let slow = ScriptedBatch(work: .seconds(3), store: store) { _ in startedInput.yield() }
        let first = Task { try await slow.runner(lanes: ["hci0"], claimLifetime: .seconds(1)).run(units.stream) }
        for await _ in started { break }
        try await Task.sleep(for: .milliseconds(1200))
        let other = ScriptedBatch(store: store)
        let second = try await other.runner(lanes: ["hci1"], station: "station-b").run(units.stream)
        #expect(try await first.value.provisioned == 1)
        #expect(second.passedOver == 1 && second.skipped == 1 && second.provisioned == 0)
        #expect(other.watch.withLock { $0.attempts.isEmpty })
    }

    /// Another station took the unit after this one's claim ran out unrenewed: the attempt stops at once and
    /// is recorded as `batch.claim-lost`, not retried.
    @Test(.timeLimit(.minutes(1)))
    func aLostClaimStopsTheAttempt() async throws {
        let store = ClaimLosingStore()
        let units = ScriptedBatch.devices(1)
        let batch = ScriptedBatch(script: [:], work: .seconds(600), store: InMemoryRecordStore())
        let runner = BatchRunner(
            settings: BatchRunner.Settings(
                batchID: "b", station: "station-a", path: .ble, lanes: ["hci0"], claimLifetime: .milliseconds(30)),
            store: store, events: { _ in }, storeFailure: { ProvisioningError(.timeout, "\($0)", hint: "-") },
            attempt: { context in try await Task.sleep(for: batch.work) })
        let summary = try await runner.run(units.stream)
        let records = await store.inner.all
        #expect(records.map(\.code) == [ErrorCode.batchClaimLost.rawValue])
        #expect(records.first?.isFinal == true && summary.failuresByCode == ["batch.claim-lost": 1])
    }
}

/// A store whose renewals find the claim taken by another station.
private actor ClaimLosingStore: ProvisioningRecordStore {
    let inner = InMemoryRecordStore()

    func append(_ record: ProvisioningRecord, settling claim: UnitClaim?) async {
        await inner.append(record, settling: claim)
    }
    func provisionedDeviceKeys(among keys: Set<String>) async -> Set<String> {
        await inner.provisionedDeviceKeys(among: keys)
    }
    func records(matching query: RecordQuery) async -> [ProvisioningRecord] { await inner.records(matching: query) }
    func claim(_ claim: UnitClaim, evenIfProvisioned: Bool) async -> UnitClaimOutcome {
        await inner.claim(claim, evenIfProvisioned: evenIfProvisioned)
    }
    func renew(_ claim: UnitClaim) -> Bool { false }
    func release(_ claim: UnitClaim) async { await inner.release(claim) }
}
