import Foundation
import Records
import TestSupport
import Testing

@testable import SQLiteRecordStore

@Suite struct SQLiteRecordStoreTests {
    @Test(arguments: RecordStoreConformance.allCases)
    func conformsToTheStoreContract(_ check: RecordStoreConformance) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await check.run(on: SQLiteRecordStore(path: directory.path + "/records.sqlite"))
    }

    @Test func createsParentDirectoriesAndRunsWALWithFullSync() async throws {
        let directory = try TemporaryDirectory()
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
        let directory = try TemporaryDirectory()
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

    @Test func twoStoresOnOneFileWriteAtOnceWithoutLockErrors() async throws {
        let directory = try TemporaryDirectory()
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

    @Test func aNewerSchemaIsRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/records.sqlite"
        _ = try await SQLiteRecordStore(path: path)
        _ = try await PythonSQLiteReader.query(path: path, sql: "PRAGMA user_version = 2")

        let error = await #expect(throws: RecordStoreError.self) { try await SQLiteRecordStore(path: path) }
        #expect(error?.kind == .incompatibleSchema)
        #expect(error?.detail.contains("version 2") == true)
    }

    @Test func anotherProgramsDatabaseIsRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/other.sqlite"
        _ = try await PythonSQLiteReader.query(path: path, sql: "CREATE TABLE contacts (name TEXT)")

        let error = await #expect(throws: RecordStoreError.self) { try await SQLiteRecordStore(path: path) }
        #expect(error?.kind == .incompatibleSchema)
    }

    @Test func aFileThatIsNotADatabaseIsRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/notes.txt"
        try String(repeating: "not a database\n", count: 100).write(toFile: path, atomically: true, encoding: .utf8)

        let error = await #expect(throws: RecordStoreError.self) { try await SQLiteRecordStore(path: path) }
        #expect(error?.kind == .incompatibleSchema)
    }

    @Test func aPathThatCannotBeCreatedIsUnavailable() async throws {
        let directory = try TemporaryDirectory()
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
