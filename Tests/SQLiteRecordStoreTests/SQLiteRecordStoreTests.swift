import Foundation
import Records
import TestSupport
import Testing

@testable import SQLiteRecordStore

@Suite struct SQLiteRecordStoreTests {
    @Test(arguments: RecordStoreConformance.allCases)
    func conformsToTheStoreContract(_ check: RecordStoreConformance) async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        try await check.run(on: SQLiteRecordStore(path: directory.path + "/records.sqlite"))
    }

    /// The reader opens the file before any writer gave it a schema, as `report --serve` may.
    @Test func feedsRecordsInStoringOrderToAReaderOpenedBeforeTheSchema() async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        let path = directory.path + "/records.sqlite"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let feed = try await SQLiteRecordStore(readingPath: path)
        try await RecordFeedConformance.run(writer: SQLiteRecordStore(path: path), feed: feed)
    }

    @Test func createsParentDirectoriesAndRunsWALWithFullSync() async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        let path = directory.path + "/a/b/records.sqlite"
        let store = try await SQLiteRecordStore(path: path)

        #expect(try await store.pragma(.synchronous) == "2")  // FULL
        #expect(try await store.pragma(.journalMode) == "wal")
        // WAL is a property of the file, so another connection sees it too.
        let reader = try await SQLiteRecordStore(path: path)
        #expect(try await reader.pragma(.journalMode) == "wal")
        #expect(try await reader.pragma(.userVersion) == String(SQLiteSchema.version))
    }

    @Test func anAppendedRecordIsVisibleToAnotherProcessWhileTheStoreIsOpen() async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        let path = directory.path + "/records.sqlite"
        let store = try await SQLiteRecordStore(path: path)
        try await store.append(RecordStoreConformance.fullRecord)

        let output = try await PythonSQLiteReader.query(
            path: path, sql: "SELECT device_key, code, steps, started_at FROM attempts")
        let expected = RecordStoreConformance.fullRecord
        #expect(
            output
                == [
                    expected.deviceKey, expected.code,
                    #"[{"milliseconds":2100,"name":"join-hotspot"},{"milliseconds":87,"name":"session"}]"#,
                    "1714550400125000",
                ])
        withExtendedLifetime(store) {}
    }

    /// Two stations opening one new file at the same moment: one creates the schema, and the other, whichever
    /// moment it looks, sees an empty file or the complete schema, never a half that looks foreign.
    @Test func storesOpeningANewFileAtOnceBothOpenIt() async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        for round in 0..<40 {
            let path = directory.path + "/records-\(round).sqlite"
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<3 { group.addTask { _ = try await SQLiteRecordStore(path: path) } }
                try await group.waitForAll()
            }
        }
    }

    @Test func twoStoresOnOneFileWriteAtOnceWithoutLockErrors() async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        let path = directory.path + "/records.sqlite"
        let perStore = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            for station in ["line-1", "line-2"] {
                group.addTask {
                    let store = try await SQLiteRecordStore(path: path)
                    for index in 0..<perStore {
                        try await store.append(RecordStoreConformance.record("\(station)-\(index)", station: station))
                    }
                }
            }
            try await group.waitForAll()
        }
        let all = try await SQLiteRecordStore(path: path).records(matching: RecordQuery())
        #expect(all.count == 2 * perStore)
        #expect(Set(all.map(\.deviceKey)).count == 2 * perStore)
    }

    /// Another process holding the write lock far longer than the store's busy timeout: a write whose task
    /// is cancelled ends within its short grace. A write that ignored the cancellation would end at the busy
    /// timeout at the earliest, so ending before it tells the two apart however slow a loaded machine is.
    @Test(.timeLimit(.minutes(1))) func aCancelledWriteStopsWaitingForAnotherProcesssLock() async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        let path = directory.path + "/records.sqlite"
        let store = try await SQLiteRecordStore(path: path)
        let script = """
            import sqlite3, sys, time
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            connection.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            time.sleep(60)
            """
        let holder = try ProcessLaunch(RepositoryLayout.python, ["-c", script, path]).start()
        defer { holder.send(signal: SIGKILL) }
        #expect(await holder.waitForStandardOutput(containing: "locked"))

        let started = ContinuousClock.now
        let append = Task { try await store.append(RecordStoreConformance.record("lamp-1")) }
        try await Task.sleep(for: .milliseconds(300))
        append.cancel()
        let result = await append.result
        #expect(throws: RecordStoreError.self) { try result.get() }
        #expect(ContinuousClock.now - started < SQLiteRecordStore.busyTimeout)
        #expect(!holder.hasExited, "the lock was released before the write ended")
    }

    @Test func aNewerSchemaIsRefused() async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        let path = directory.path + "/records.sqlite"
        _ = try await SQLiteRecordStore(path: path)
        _ = try await PythonSQLiteReader.query(path: path, sql: "PRAGMA user_version = 5")

        let error = await #expect(throws: RecordStoreError.self) { try await SQLiteRecordStore(path: path) }
        #expect(error?.kind == .incompatibleSchema)
        #expect(error?.detail.contains("version 5") == true)
    }

    /// A file of schema version 1 (before `protocol`): a reader takes it as it is, the first writer adds the
    /// column, and the old rows survive with no protocol.
    @Test func aVersion1FileIsReadAsItIsAndMigratedByTheFirstWriter() async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        let path = directory.path + "/records.sqlite"
        for sql in [
            """
            CREATE TABLE attempts (id INTEGER PRIMARY KEY, batch_id TEXT NOT NULL, station TEXT NOT NULL,
            adapter TEXT NOT NULL, device_key TEXT NOT NULL, address TEXT, device_id TEXT, path TEXT NOT NULL,
            security TEXT, attempt INTEGER NOT NULL, is_final INTEGER NOT NULL, code TEXT NOT NULL, message TEXT,
            started_at INTEGER NOT NULL, finished_at INTEGER NOT NULL, steps TEXT NOT NULL, firmware_blufi TEXT,
            firmware_protocomm TEXT, firmware_device TEXT)
            """,
            """
            INSERT INTO attempts (batch_id, station, adapter, device_key, path, attempt, is_final, code, started_at,
            finished_at, steps, firmware_blufi) VALUES ('b0', 'line-1', 'hci0', 'lamp-0', 'ble', 1, 1, 'ok',
            1700000000000000, 1700000001000000, '[]', 'v1.4')
            """,
            "PRAGMA application_id = \(0x7A74_7072)", "PRAGMA user_version = 1",
        ] {
            _ = try await PythonSQLiteReader.query(path: path, sql: sql)
        }
        let old = try await SQLiteRecordStore(readingPath: path).records(matching: RecordQuery())
        #expect(old.map(\.deviceKey) == ["lamp-0"] && old.first?.provisioningProtocol == nil)
        #expect(old.first?.firmware.bluFi == "v1.4")
        let versionAfterReading = try await PythonSQLiteReader.query(path: path, sql: "PRAGMA user_version")
        #expect(versionAfterReading == ["1"], "a reader writes nothing")

        let writer = try await SQLiteRecordStore(path: path)
        try await writer.append(RecordStoreConformance.fullRecord)
        let versionAfterWriting = try await PythonSQLiteReader.query(path: path, sql: "PRAGMA user_version")
        #expect(versionAfterWriting == ["4"])
        let all = try await writer.records(matching: RecordQuery())
        #expect(all.map(\.deviceKey) == ["lamp-0", RecordStoreConformance.fullRecord.deviceKey])
        #expect(all.last == RecordStoreConformance.fullRecord)
        #expect(all.last?.provisioningProtocol == "protocomm")
        let claim = RecordStoreConformance.claim("lamp-0", by: "batch-a")
        #expect(try await writer.claim(claim, evenIfProvisioned: false) == .provisioned)
    }

    /// A file of schema version 2 (before claims): a reader takes it as it is and writes no claims table,
    /// the first writer adds it and claims work.
    @Test func aVersion2FileGainsClaimsFromTheFirstWriterOnly() async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        let path = directory.path + "/records.sqlite"
        try await SQLiteRecordStore(path: path).append(RecordStoreConformance.record("lamp-0"))
        for sql in ["DROP TABLE claims", "ALTER TABLE attempts DROP COLUMN secured_with", "PRAGMA user_version = 2"] {
            _ = try await PythonSQLiteReader.query(path: path, sql: sql)
        }
        let claimsTable = "SELECT count(*) FROM sqlite_master WHERE name = 'claims'"
        let old = try await SQLiteRecordStore(readingPath: path).records(matching: RecordQuery())
        #expect(old.map(\.deviceKey) == ["lamp-0"])
        #expect(try await PythonSQLiteReader.query(path: path, sql: claimsTable) == ["0"], "a reader writes nothing")

        let writer = try await SQLiteRecordStore(path: path)
        #expect(try await PythonSQLiteReader.query(path: path, sql: "PRAGMA user_version") == ["4"])
        #expect(try await PythonSQLiteReader.query(path: path, sql: claimsTable) == ["1"])
        let claim = RecordStoreConformance.claim("lamp-1", by: "batch-a")
        #expect(try await writer.claim(claim, evenIfProvisioned: false) == .claimed)
        #expect(try await writer.records(matching: RecordQuery()) == old)
    }

    /// A file of schema version 3 (before `secured_with`): a reader takes its rows as they are, with no security
    /// known; the first writer adds the column and the old rows keep reading the same.
    @Test func aVersion3FileGainsSecuredWithFromTheFirstWriterOnly() async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        let path = directory.path + "/records.sqlite"
        var older = RecordStoreConformance.record("lamp-0")
        older.security = "v1"
        try await SQLiteRecordStore(path: path).append(older)
        for sql in ["ALTER TABLE attempts DROP COLUMN secured_with", "PRAGMA user_version = 3"] {
            _ = try await PythonSQLiteReader.query(path: path, sql: sql)
        }
        let old = try await SQLiteRecordStore(readingPath: path).records(matching: RecordQuery())
        #expect(old == [older])
        #expect(try await PythonSQLiteReader.query(path: path, sql: "PRAGMA user_version") == ["3"])

        let writer = try await SQLiteRecordStore(path: path)
        try await writer.append(RecordStoreConformance.fullRecord)
        #expect(try await PythonSQLiteReader.query(path: path, sql: "PRAGMA user_version") == ["4"])
        let stored = try await PythonSQLiteReader.query(
            path: path, sql: "SELECT group_concat(coalesce(secured_with, '-'), ' ') FROM attempts")
        #expect(stored == ["- protocomm-sec2+encrypted-link"])
        #expect(try await writer.records(matching: RecordQuery()) == [older, RecordStoreConformance.fullRecord])
    }

    /// `ztprov report` opens the file for reading: claiming through it fails and leaves no claim behind.
    @Test func aReaderNeverWritesAClaim() async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        let path = directory.path + "/records.sqlite"
        _ = try await SQLiteRecordStore(path: path)
        let reader = try await SQLiteRecordStore(readingPath: path)
        let claim = RecordStoreConformance.claim("lamp", by: "batch-a")
        await #expect(throws: RecordStoreError.self) { try await reader.claim(claim, evenIfProvisioned: false) }
        #expect(try await PythonSQLiteReader.query(path: path, sql: "SELECT count(*) FROM claims") == ["0"])
    }

    @Test func anotherProgramsDatabaseIsRefused() async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        let path = directory.path + "/other.sqlite"
        _ = try await PythonSQLiteReader.query(path: path, sql: "CREATE TABLE contacts (name TEXT)")

        let error = await #expect(throws: RecordStoreError.self) { try await SQLiteRecordStore(path: path) }
        #expect(error?.kind == .incompatibleSchema)
    }

    @Test func aFileThatIsNotADatabaseIsRefused() async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        let path = directory.path + "/notes.txt"
        try String(repeating: "not a database\n", count: 100).write(toFile: path, atomically: true, encoding: .utf8)

        let error = await #expect(throws: RecordStoreError.self) { try await SQLiteRecordStore(path: path) }
        #expect(error?.kind == .incompatibleSchema)
    }

    @Test func aPathThatCannotBeCreatedIsUnavailable() async throws {
        let directory = try TemporaryDirectory("records")
        defer { directory.remove() }
        // A regular file where a directory should be: unwritable even for root.
        let blocker = directory.path + "/file"
        try "x".write(toFile: blocker, atomically: true, encoding: .utf8)

        let nested = await #expect(throws: RecordStoreError.self) {
            try await SQLiteRecordStore(path: blocker + "/ztprov/records.sqlite")
        }
        #expect(nested?.kind == .unavailable)
        let directoryAsFile = await #expect(throws: RecordStoreError.self) {
            try await SQLiteRecordStore(path: directory.path)
        }
        #expect(directoryAsFile?.kind == .unavailable)
    }
}
