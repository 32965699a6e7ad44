import Foundation
import Glibc
import Logging
import Records
import SQLiteRecordStore
import TestSupport
import Testing

@testable import ztprov

/// How `report --serve` keeps up with the database: a read that fails after the watch saw a change is not
/// lost with it, nor a commit that shows after its files changed.
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

    /// A writer's log changes, and is synced, before its commit can be read: a look in between sees the
    /// files changed and nothing new, and after it the files stay as that look saw them. Here the commit
    /// lands with the files kept exactly as the last look saw them (the log overwritten in place after a
    /// checkpoint, the times put back), so only SQLite's own `data_version` can tell.
    @Test(.timeLimit(.minutes(1))) func aCommitThatLeavesTheFilesAsTheyWereIsSeen() async throws {
        let directory = try TemporaryDirectory("follow-commit")
        defer { directory.remove() }
        let path = directory.path + "/records.sqlite"
        let writer = try await SQLiteRecordStore(path: path)
        for record in ShiftRecords.records().prefix(6) { try await writer.append(record) }
        var watch = try await RecordChangeWatch.watching(.sqlite(path: path))
        #expect(try await watch.next())
        // The next writer starts the log again from its beginning, in place.
        let checkpoint = try await ProcessLaunch(
            RepositoryLayout.python,
            [
                "-c",
                "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(RESTART)')"
                    + ".fetchone()[0])", path,
            ]
        ).output()
        #expect(checkpoint.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(checkpoint)")
        while try await watch.next() {}
        let files = [path, path + "-wal"]
        let before = files.map(Self.status)
        try await writer.append(ShiftRecords.records()[6])
        for (file, status) in zip(files, before) { Self.putBackTimes(of: file, from: status) }
        #expect(files.map(Self.status).map(Self.signature) == before.map(Self.signature))
        #expect(try await watch.next())
        #expect(try await !watch.next())
    }

    private static func status(_ path: String) -> stat {
        var status = stat()
        #expect(stat(path, &status) == 0, "\(path)")
        return status
    }

    private static func signature(_ status: stat) -> [Int] {
        [Int(status.st_ino), Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec)]
    }

    private static func putBackTimes(of path: String, from status: stat) {
        let times = [status.st_atim, status.st_mtim]
        #expect(utimensat(AT_FDCWD, path, times, 0) == 0, "\(path)")
    }
}
