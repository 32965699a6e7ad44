import Foundation
import Records
import SQLiteRecordStore
import TestSupport
import Testing

/// Records come from machines with wrong clocks and from runs that went badly: every report format
/// renders every record the store accepts, whatever its times, durations and attempt counts.
@Suite struct UnchartableRecordsEndToEndTests {
    /// The widest instant the SQLite store keeps (microseconds in 64 bits), a little inside.
    static let widestSeconds = 9.2e12

    /// One generated shift of one kind: every clock stepping back (`0`), durations at the extremes
    /// (`1`), one unit tried hundreds of times, some attempts spanning every instant the store keeps
    /// (`2`), or all of these mixed (`3`).
    static func records(kind: UInt64, _ random: inout SplitMix64) -> [ProvisioningRecord] {
        let base = RecordStoreConformance.start
        let extremes = [Int.min, Int.max, -1, 0, Int.max / 2, Int.min / 2, 1 << 53]
        func milliseconds(_ random: inout SplitMix64) -> Int {
            random.chance(50) ? extremes[random.below(extremes.count)] : Int(bitPattern: UInt(random.next()))
        }
        func extreme(_ random: inout SplitMix64) -> Date {
            Date(timeIntervalSince1970: (Double(random.below(2_000_001)) / 1_000_000 - 1) * widestSeconds)
        }
        let count = kind >= 2 ? 520 + random.below(300) : 10 + random.below(40)
        return (0..<count).map { index in
            let kind = kind == 3 ? UInt64(random.below(3)) : kind
            let startedAt =
                switch kind {
                case 1: extreme(&random)
                case 2 where random.chance(50): Date(timeIntervalSince1970: -widestSeconds)
                default: base.addingTimeInterval(Double(random.below(100_000)))
                }
            var record = RecordStoreConformance.record(
                kind == 2 ? "stubborn-1" : "unit-\(index)", station: "line-\(random.below(3))",
                code: random.chance(50) ? "ok" : ["ble.link-lost", "timeout", "x\(random.below(30))"][random.below(3)],
                startedAt: startedAt)
            record.finishedAt =
                switch kind {
                case 0: startedAt.addingTimeInterval(-Double(1 + random.below(1_000_000_000)))
                case 1: extreme(&random)
                default: startedAt.addingTimeInterval(random.chance(50) ? Double(random.below(600)) : widestSeconds)
                }
            record.attempt = kind == 2 ? index + 1 : [1, Int.max, Int.min, 0, -1][random.below(5)]
            record.isFinal = kind == 2 ? index == count - 1 : random.chance(30)
            record.steps = (0..<random.below(5)).map { step in
                RecordedStep(
                    name: ["scan", "connect", "join", "odd-\(step)"][random.below(4)],
                    milliseconds: milliseconds(&random))
            }
            return record
        }
    }

    @Test(arguments: 0..<8)
    func everyFormatRendersEveryRecordTheStoreAccepts(seed: UInt64) async throws {
        var random = SplitMix64(seed: 0xC10C_0000 + seed)
        let directory = try TemporaryDirectory("unchartable")
        defer { directory.remove() }
        let path = directory.path + "/records.sqlite"
        let store = try await SQLiteRecordStore(path: path)
        let records = Self.records(kind: seed % 4, &random)
        for record in records { try await store.append(record) }
        for format in ["csv", "json", "html"] {
            let outcome = try await HostileRun.expect(["report", "--format", format, "--db", path], status: 0)
            switch format {
            case "html": #expect(outcome.standardOutput.hasSuffix("</html>\n"), "seed \(seed)")
            case "json": #expect(outcome.standardOutput.split(separator: "\n").count == records.count, "seed \(seed)")
            default: #expect(outcome.standardOutput.split(separator: "\r\n").count == records.count + 1, "seed \(seed)")
            }
        }
    }
}
