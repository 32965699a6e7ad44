import Foundation
import Logging
import Records
import TestSupport
import Testing

@testable import ztprov

/// How `report --serve` keeps up with the database: a read that fails after the watch saw a change is not
/// lost with it.
@Suite struct LineServerFollowTests {
    /// Records that a reader gets only after `failures` reads failed, as when a writer holds a lock.
    actor FlakyFeed: RecordFeed {
        var failures: Int
        let stored: [NumberedRecord]

        init(failures: Int, stored: [NumberedRecord]) {
            self.failures = failures
            self.stored = stored
        }

        func records(after number: Int64, limit: Int) throws -> [NumberedRecord] {
            if failures > 0 {
                failures -= 1
                throw RecordStoreError(.unavailable, "database is locked")
            }
            return stored.filter { $0.number > number }
        }
    }

    /// The file changes once, before the first look; its records come only on the third read.
    @Test(.timeLimit(.minutes(1))) func aReadThatFailsAfterAChangeIsTriedAgain() async throws {
        let directory = try TemporaryDirectory("follow")
        defer { directory.remove() }
        let location = RecordStoreLocation.sqlite(path: directory.path + "/records.sqlite")
        #expect(FileManager.default.createFile(atPath: directory.path + "/records.sqlite", contents: Data("x".utf8)))
        let stored = [NumberedRecord(number: 1, record: ShiftRecords.records()[0])]
        let line = LiveLine(
            feed: FlakyFeed(failures: 2, stored: stored), quietAfter: .seconds(600), inScope: { _ in true },
            render: { _, _ in "" })
        let watch = try await RecordChangeWatch.watching(location)
        let following = Task {
            await LineServer.follow(watch, into: line, from: location, logger: Logger(label: "follow"))
        }
        defer { following.cancel() }
        while await line.version != 1 { try await Task.sleep(for: .milliseconds(20)) }
    }
}
