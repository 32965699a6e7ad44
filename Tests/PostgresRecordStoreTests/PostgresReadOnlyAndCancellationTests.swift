import Foundation
import Records
import Synchronization
import TestSupport
import Testing

@testable import PostgresRecordStore

/// `report`'s read-only store and statements that Ctrl-C ends, against a real server on loopback.
@Suite(
    .enabled(if: PostgresTestServer.binaries != nil, "PostgreSQL server binaries are not installed (apt postgresql)"),
    .postgresServer
)
struct PostgresReadOnlyAndCancellationTests {
    /// A login role that may only read ztprov's tables, and its URL.
    static func auditor(of url: String, _ server: PostgresTestServer) async throws -> String {
        let role = "auditor_" + UUID().uuidString.prefix(8).lowercased()
        let database = url.split(separator: "/").last!
        try await server.psql(
            url,
            "CREATE ROLE \(role) LOGIN; GRANT CONNECT ON DATABASE \(database) TO \(role); "
                + "GRANT SELECT ON attempts, ztprov_schema TO \(role)")
        return url.replacingOccurrences(of: "://\(PostgresTestServer.user)@", with: "://\(role)@")
    }

    @Test func anAuditorWhoMayOnlySelectReadsInAReadOnlySession() async throws {
        let server = try PostgresTestServer.required()
        let url = try await server.freshDatabase()
        try await PostgresRecordStore(url: url).append(RecordStoreConformance.record("lamp-1"))
        let auditor = try await Self.auditor(of: url, server)

        let store = try await PostgresRecordStore(readingURL: auditor)
        #expect(try await store.records(matching: RecordQuery()).map(\.deviceKey) == ["lamp-1"])
        #expect(try await store.isReadOnlySession)
        // The same role cannot use the writing store: it would append.
        await #expect(throws: RecordStoreError.self) {
            try await PostgresRecordStore(url: auditor).append(RecordStoreConformance.record("lamp-2"))
        }
    }

    @Test func readingAnEmptyDatabaseCreatesNothing() async throws {
        let server = try PostgresTestServer.required()
        let url = try await server.freshDatabase()
        let store = try await PostgresRecordStore(readingURL: url)
        #expect(try await store.records(matching: RecordQuery()).isEmpty)
        try await server.psql(
            url, "DO $$ BEGIN IF to_regclass('attempts') IS NOT NULL THEN RAISE 'created'; END IF; END $$")
    }

    /// A writer holding the table's lock: the read-only store fails after its lock timeout instead of
    /// waiting, and a writing store's statement ends soon after its task is cancelled.
    @Test func lockWaitsFailOrEndOnCancellation() async throws {
        let server = try PostgresTestServer.required()
        let url = try await server.freshDatabase()
        let writer = try await PostgresRecordStore(url: url)
        let reader = try await PostgresRecordStore(readingURL: url)
        // The lock is held far longer than the read's lock timeout: both waits must end while it is held.
        let released = Mutex(false)
        let holder = Task {
            try await server.psql(
                url, "BEGIN; LOCK TABLE attempts IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(30); COMMIT")
            released.withLock { $0 = true }
        }
        defer { holder.cancel() }
        try await Task.sleep(for: .seconds(1))

        await #expect(throws: RecordStoreError.self) { try await reader.records(matching: RecordQuery()) }
        #expect(!released.withLock { $0 }, "the read waited for the writer's lock")

        let append = Task { try await writer.append(RecordStoreConformance.record("lamp-1")) }
        try await Task.sleep(for: .milliseconds(300))
        append.cancel()
        let result = await append.result
        #expect(throws: RecordStoreError.self) { try result.get() }
        #expect(!released.withLock { $0 }, "the cancelled statement waited for the writer's lock")
    }
}
