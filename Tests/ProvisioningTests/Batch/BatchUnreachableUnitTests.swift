import Foundation
import Provisioning
import Records
import Synchronization
import TestSupport
import Testing

/// A unit no lane of the batch may take (pinned to an adapter that is not a lane, or to a lane that
/// stopped) is recorded as a final failure with a named code: never counted as provisioned, never silent.
@Suite struct BatchUnreachableUnitTests {
    /// Generated unit lists: some units free, some pinned to one of the lanes, some pinned to adapters the
    /// batch does not have; every unit ends in exactly one final record, and only the reachable ones succeed.
    @Test(arguments: 0..<8)
    func unitsPinnedToAnAdapterThatIsNoLaneAreRecordedAsFailed(seed: UInt64) async throws {
        var random = SplitMix64(seed: 0x1A_0E00 + seed)
        let lanes = (0..<(1 + random.below(3))).map { "hci\($0)" }
        var strays: Set<String> = []
        let devices = (1...(2 + random.below(10))).map { index -> BatchDevice in
            let address = String(format: "24:0A:C4:00:01:%02X", index)
            switch random.below(3) {
            case 0: return BatchDevice(address: address, line: index)
            case 1: return BatchDevice(address: address, lane: lanes[random.below(lanes.count)], line: index)
            default:
                let lane = [
                    "hci\(lanes.count + random.below(6))", "wlan\(random.below(3))", "slot:\(random.below(9))",
                ][
                    random.below(3)]
                strays.insert(address)
                return BatchDevice(address: address, lane: lane, line: index)
            }
        }
        let batch = ScriptedBatch()
        let summary = try await batch.runner(lanes: lanes).run(devices.stream)

        let records = await batch.store.all
        for device in devices {
            let final = records.filter { $0.deviceKey == device.key && $0.isFinal }
            #expect(final.count == 1, "\(device.key): \(final)")
            let expected = strays.contains(device.key) ? "batch.unknown-lane" : "ok"
            #expect(final.first?.code == expected, "\(device.key)")
        }
        #expect(summary.failed == strays.count)
        #expect(summary.provisioned == devices.count - strays.count)
        #expect(summary.untouched == 0)
        #expect(!batch.watch.withLock { $0.attempts }.contains { strays.contains($0.key) })
        for record in records where record.code == "batch.unknown-lane" {
            #expect(record.message?.contains("not a lane of this batch") == true, "\(record)")
        }
    }

    /// A unit pinned to a lane that stops (its adapter powered off) while other lanes go on is recorded as
    /// failed with the lane's reason, not left untouched in a batch that says it is done.
    @Test func aUnitPinnedToALaneThatStoppedIsRecordedWithTheLanesReason() async throws {
        var devices = ScriptedBatch.devices(4)
        devices[0].lane = "hci1"
        devices[3].lane = "hci1"
        let batch = ScriptedBatch(script: [devices[0].key: [ScriptedBatch.adapterOff]])
        let summary = try await batch.runner(lanes: ["hci0", "hci1"]).run(devices.stream)
        let records = await batch.store.all
        let stranded = records.filter { $0.deviceKey == devices[3].key }
        #expect(stranded.map(\.code) == ["host.adapter-powered-off"], "\(records)")
        #expect(stranded.first?.isFinal == true)
        #expect(stranded.first?.message?.hasPrefix("Not attempted") == true, "\(stranded)")
        #expect(summary.failed >= 1 && summary.untouched == 0, "\(summary)")
    }
}
