import Foundation
import Provisioning
import Records
import Synchronization
import TestSupport
import Testing

@Suite struct BatchRunnerTests {
    @Test func everyUnitEndsInExactlyOneFinalRecordWithItsCode() async throws {
        let devices = ScriptedBatch.devices(12, pop: "pop-Secret-31")
        let script: [String: [ProvisioningError?]] = [
            devices[2].key: [ScriptedBatch.wrongPassword],
            devices[7].key: [ScriptedBatch.wrongPassword],
            devices[5].key: [ScriptedBatch.linkLost],
            devices[9].key: [ScriptedBatch.linkLost, ScriptedBatch.linkLost, ScriptedBatch.linkLost],
        ]
        let batch = ScriptedBatch(script: script)
        let summary = try await batch.runner(lanes: ["hci0", "hci1", "hci2", "hci3"]).run(devices.stream)

        let records = await batch.store.all
        for device in devices {
            let finals = records.filter { $0.deviceKey == device.key && $0.isFinal }
            #expect(finals.count == 1, "\(device.key)")
        }
        func finalCode(_ index: Int) -> String? {
            records.first { $0.deviceKey == devices[index].key && $0.isFinal }?.code
        }
        #expect(finalCode(0) == "ok")
        #expect(finalCode(2) == "blufi.wifi-wrong-password")
        #expect(finalCode(5) == "ok")
        #expect(finalCode(9) == "ble.link-lost")
        #expect(records.filter { $0.deviceKey == devices[5].key }.map(\.attempt) == [1, 2])
        #expect(records.filter { $0.deviceKey == devices[9].key }.map(\.isFinal) == [false, false, true])
        #expect(records.filter { $0.deviceKey == devices[2].key }.count == 1, "wrong credentials are not retried")
        #expect(summary.provisioned == 9)
        #expect(summary.failed == 3)
        #expect(summary.attempts == 15)
        #expect(summary.failuresByCode == ["blufi.wifi-wrong-password": 2, "ble.link-lost": 1])
        #expect(!summary.interrupted)
    }

    @Test func recordsCarryStepsAndLearnedFactsButNoSecret() async throws {
        let batch = ScriptedBatch()
        _ = try await batch.runner(lanes: ["hci0"]).run(ScriptedBatch.devices(2, pop: "pop-Secret-31").stream)
        let records = await batch.store.all
        let record = try #require(records.first)
        #expect(record.batchID == "batch-station-a")
        #expect(record.station == "station-a")
        #expect(record.adapter == "hci0")
        #expect(record.path == .ble)
        #expect(record.deviceID == "id-\(record.deviceKey)")
        #expect(record.steps.map(\.name) == ["connect", "join"])
        #expect(record.steps[0].milliseconds >= 20)
        #expect(record.finishedAt >= record.startedAt)
        let encoded = String(decoding: try JSONEncoder().encode(records), as: UTF8.self)
        #expect(!encoded.contains("pop-Secret-31"))
    }

    @Test func lanesWorkInParallelWithOneUnitEachAtATime() async throws {
        let batch = ScriptedBatch(work: .milliseconds(60))
        _ = try await batch.runner(lanes: ["hci0", "hci1", "hci2", "hci3"]).run(ScriptedBatch.devices(12).stream)
        let watch = batch.watch.withLock { $0 }
        #expect(watch.peakPerLane.values.allSatisfy { $0 == 1 })
        #expect(watch.lanesUsed.count > 1)
        #expect(watch.peak > 1)
        #expect(watch.attempts.count == 12)
    }

    @Test func provisionedUnitsAreSkippedUnlessForced() async throws {
        let devices = ScriptedBatch.devices(3)
        let done = ProvisioningRecord(
            batchID: "earlier", station: "station-b", adapter: "hci5", deviceKey: devices[1].key, path: .ble,
            attempt: 1, isFinal: true, code: "ok", startedAt: Date(), finishedAt: Date())
        let failedBefore = ProvisioningRecord(
            batchID: "earlier", station: "station-b", adapter: "hci5", deviceKey: devices[2].key, path: .ble,
            attempt: 1, isFinal: true, code: "ble.link-lost", startedAt: Date(), finishedAt: Date())
        let batch = ScriptedBatch(store: InMemoryRecordStore([done, failedBefore]))
        let summary = try await batch.runner(lanes: ["hci0"]).run(devices.stream)
        #expect(summary.skipped == 1)
        #expect(summary.provisioned == 2)
        #expect(batch.watch.withLock { $0.attempts.map(\.key) } == [devices[0].key, devices[2].key])

        let forced = ScriptedBatch(store: InMemoryRecordStore([done]))
        let again = try await forced.runner(lanes: ["hci0"], force: true).run(devices.stream)
        #expect(again.skipped == 0)
        #expect(again.provisioned == 3)
    }

    @Test func aUnitNamedTwiceIsTriedOnce() async throws {
        let devices = ScriptedBatch.devices(2)
        let batch = ScriptedBatch()
        let summary = try await batch.runner(lanes: ["hci0", "hci1"]).run((devices + [devices[0]]).stream)
        #expect(summary.skipped == 1)
        #expect(summary.provisioned == 2)
        #expect(batch.watch.withLock { $0.attempts.count } == 2)
    }

    @Test func pinnedUnitsWaitForTheirLane() async throws {
        var devices = ScriptedBatch.devices(6)
        for index in devices.indices { devices[index].lane = index.isMultiple(of: 2) ? "hci1" : nil }
        let batch = ScriptedBatch()
        _ = try await batch.runner(lanes: ["hci0", "hci1"]).run(devices.stream)
        let attempts = batch.watch.withLock { $0.attempts }
        for (index, device) in devices.enumerated() where index.isMultiple(of: 2) {
            #expect(attempts.first { $0.key == device.key }?.lane == "hci1")
        }
        #expect(attempts.count == 6)
    }

    @Test func anUnusableLaneHandsItsUnitBackAndStops() async throws {
        let devices = ScriptedBatch.devices(4)
        let batch = ScriptedBatch(onAttempt: { _ in })
        let broken = BatchRunner.Settings(batchID: "b", station: "s", path: .ble, lanes: ["hci9", "hci0"])
        let runner = BatchRunner(
            settings: broken, store: batch.store, events: { _ in },
            storeFailure: { _ in ScriptedBatch.linkLost },
            attempt: { context in
                if context.lane == "hci9" { throw ScriptedBatch.adapterOff }
                try await Task.sleep(for: .milliseconds(5))
            })
        let summary = try await runner.run(devices.stream)
        #expect(summary.provisioned == 4)
        let records = await batch.store.all
        #expect(records.allSatisfy { $0.adapter == "hci0" && $0.isFinal && $0.succeeded })

        let allBroken = BatchRunner(
            settings: BatchRunner.Settings(batchID: "b", station: "s", path: .ble, lanes: ["hci9"]),
            store: InMemoryRecordStore(), events: { _ in }, storeFailure: { _ in ScriptedBatch.linkLost },
            attempt: { _ in throw ScriptedBatch.adapterOff })
        let error = await #expect(throws: ProvisioningError.self) { try await allBroken.run(devices.stream) }
        #expect(error?.code == .bluetoothAdapterPoweredOff)
    }

    @Test(.timeLimit(.minutes(1)))
    func whenEveryLaneStopsAnOpenInputDoesNotKeepTheBatchWaiting() async throws {
        let (stream, input) = AsyncStream<BatchDevice>.makeStream()
        input.yield(ScriptedBatch.devices(1)[0])
        let runner = BatchRunner(
            settings: BatchRunner.Settings(batchID: "b", station: "s", path: .ble, lanes: ["hci9"]),
            store: InMemoryRecordStore(), events: { _ in }, storeFailure: { _ in ScriptedBatch.linkLost },
            attempt: { _ in throw ScriptedBatch.adapterOff })
        let error = await #expect(throws: ProvisioningError.self) { try await runner.run(stream) }
        #expect(error?.code == .bluetoothAdapterPoweredOff)
        input.finish()
    }

    @Test func ctrlCRecordsAttemptsInFlightAndLeavesTheRestUntouched() async throws {
        let started = AsyncStream<Void>.makeStream()
        let batch = ScriptedBatch(work: .seconds(30), onAttempt: { _ in started.continuation.yield() })
        let devices = ScriptedBatch.devices(8)
        let run = Task { try await batch.runner(lanes: ["hci0", "hci1"]).run(devices.stream) }
        var iterator = started.stream.makeAsyncIterator()
        _ = await iterator.next()
        _ = await iterator.next()
        run.cancel()
        let summary = try await run.value
        #expect(summary.interrupted)
        let records = await batch.store.all
        #expect(records.count == 2)
        #expect(records.allSatisfy { $0.code == "interrupted" && !$0.isFinal })
        #expect(summary.untouched == 8)
        #expect(summary.provisioned + summary.failed == 0)
    }

    @Test func aStoreThatCannotWriteStopsTheBatch() async throws {
        struct Broken: ProvisioningRecordStore {
            struct Full: Error {}
            func append(_ record: ProvisioningRecord, settling claim: UnitClaim?) async throws { throw Full() }
            func provisionedDeviceKeys(among keys: Set<String>) async throws -> Set<String> { [] }
            func records(matching query: RecordQuery) async throws -> [ProvisioningRecord] { [] }
            func claim(_ claim: UnitClaim, evenIfProvisioned: Bool) async throws -> UnitClaimOutcome { .claimed }
            func renew(_ claim: UnitClaim) async throws -> Bool { true }
            func release(_ claim: UnitClaim) async throws {}
        }
        let runner = BatchRunner(
            settings: BatchRunner.Settings(batchID: "b", station: "s", path: .ble, lanes: ["hci0", "hci1"]),
            store: Broken(), events: { _ in },
            storeFailure: { ProvisioningError(.timeout, "cannot record: \($0)", hint: "-") },
            attempt: { _ in })
        let error = await #expect(throws: ProvisioningError.self) {
            try await runner.run(ScriptedBatch.devices(5).stream)
        }
        #expect(error?.message.contains("Full") == true)
    }

    @Test func unitsArrivingWhileLanesWorkAreTaken() async throws {
        let (stream, input) = AsyncStream<BatchDevice>.makeStream()
        let batch = ScriptedBatch()
        let run = Task { try await batch.runner(lanes: ["hci0", "hci1"]).run(stream) }
        for device in ScriptedBatch.devices(3) {
            input.yield(device)
            try await Task.sleep(for: .milliseconds(30))
        }
        input.finish()
        let summary = try await run.value
        #expect(summary.provisioned == 3)
    }
}
