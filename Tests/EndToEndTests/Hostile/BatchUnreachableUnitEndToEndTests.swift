import Foundation
import Glibc
import TestSupport
import Testing

/// A unit pinned to an adapter or interface that is not a lane of the batch can never be attempted: in a
/// units file it is refused before anything starts (exit 2, `batch.unknown-lane`, no database made); on
/// stdin it is recorded as failed and the batch does not succeed (exit 10).
@Suite(.timeLimit(.minutes(3))) struct BatchUnreachableUnitEndToEndTests {
    /// Generated units files: lanes `wlanA…`, units free, pinned to a lane, or (at least one) pinned elsewhere.
    @Test func aUnitsFilePinningAUnitToNoLaneIsRefusedBeforeTheBatchStarts() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SplitMix64(seed: 0x57_4A7)
        for round in 0..<4 {
            let lanes = (0..<(1 + random.below(3))).map { "wlan\($0)" }
            let stray = ["wlan\(lanes.count + random.below(5))", "hci\(random.below(4))", "eth\(random.below(2))"][
                random.below(3)]
            var rows = (1...(1 + random.below(6))).map { index in
                "ZT_\(round)_\(index)," + (random.below(2) == 0 ? "" : lanes[random.below(lanes.count)])
            }
            rows.insert("ZT_\(round)_STRAY,\(stray)", at: random.below(rows.count + 1))
            let units = try HostileRun.file(
                "units\(round).csv", Array((["ssid,adapter"] + rows).joined(separator: "\n").utf8), in: directory)
            let database = directory.appending(path: "records\(round).sqlite").path
            let outcome = try await HostileRun.expect(
                [
                    "batch", "--path", "softap", "--ssid", "Net", "--open-network", "--wifi-interfaces",
                    lanes.joined(separator: ","), "--devices", units, "--db", database,
                ], status: 2, code: "batch.unknown-lane")
            #expect(outcome.standardError.contains("ZT_\(round)_STRAY"), "\(outcome)")
            #expect(outcome.standardError.contains(stray), "\(outcome)")
            #expect(!FileManager.default.fileExists(atPath: database), "a refused batch made its database")
        }
    }

    /// Units typed on stdin pinned to interfaces the batch does not have: each is recorded as a final
    /// failure naming the lane, and the batch exits 10, not 0.
    @Test func unitsOnStdinPinnedToNoLaneAreRecordedAsFailed() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SplitMix64(seed: 0x57_D17)
        let count = 1 + random.below(4)
        let lines = (1...count).map { "ZT_STRAY_\($0),wlan\(1 + random.below(7))" }
        let outcome = try await HostileRun.expect(
            [
                "batch", "--path", "softap", "--ssid", "Net", "--open-network", "--wifi-interfaces", "wlan0",
                "--db", directory.appending(path: "records.sqlite").path, "--json",
            ], status: 10, code: "batch.incomplete",
            input: Data((["ssid,adapter"] + lines).joined(separator: "\n").utf8))
        let recorded = outcome.events.filter { $0["event"] as? String == "attempt-recorded" }
        #expect(recorded.count == count, "\(outcome)")
        #expect(recorded.allSatisfy { $0["code"] as? String == "batch.unknown-lane" && $0["final"] as? Bool == true })
        let summary = outcome.events.first { $0["event"] as? String == "summary" }
        #expect(summary?["failed"] as? Int == count, "\(outcome)")
        #expect(summary?["provisioned"] as? Int == 0, "\(outcome)")
    }
}
