import PostgresRecordStore
import Records
import TestSupport
import Testing

/// The store against a real server on loopback; a fresh database per test.
@Suite(
    .enabled(if: PostgresTestServer.binaries != nil, "PostgreSQL server binaries are not installed (apt postgresql)"),
    .postgresServer
)
struct PostgresRecordStoreTests {
    @Test(arguments: RecordStoreConformance.allCases)
    func conformsToTheStoreContract(_ check: RecordStoreConformance) async throws {
        let url = try await PostgresTestServer.required().freshDatabase()
        try await check.run(on: PostgresRecordStore(url: url))
    }

    @Test func stationsSharingTheDatabaseSeeEachOthersSuccesses() async throws {
        let url = try await PostgresTestServer.required().freshDatabase()
        let first = try await PostgresRecordStore(url: url)
        let second = try await PostgresRecordStore(url: url)
        try await first.append(RecordStoreConformance.record("lamp-1", station: "line-1"))
        try await second.append(RecordStoreConformance.record("lamp-2", station: "line-2", code: "ble.link-lost"))

        #expect(try await second.provisionedDeviceKeys(among: ["lamp-1", "lamp-2"]) == ["lamp-1"])
        #expect(try await first.records(matching: RecordQuery(station: "line-2")).map(\.deviceKey) == ["lamp-2"])
    }

    @Test func aNewerSchemaIsRefused() async throws {
        let server = try PostgresTestServer.required()
        let url = try await server.freshDatabase()
        _ = try await PostgresRecordStore(url: url)
        try await server.psql(url, "UPDATE ztprov_schema SET version = 2")

        let error = await #expect(throws: RecordStoreError.self) { try await PostgresRecordStore(url: url) }
        #expect(error?.kind == .incompatibleSchema)
        #expect(error?.detail.contains("version 2") == true)
    }

    @Test func anotherProgramsAttemptsTableIsRefused() async throws {
        let server = try PostgresTestServer.required()
        let url = try await server.freshDatabase()
        try await server.psql(url, "CREATE TABLE attempts (id integer)")

        let error = await #expect(throws: RecordStoreError.self) { try await PostgresRecordStore(url: url) }
        #expect(error?.kind == .incompatibleSchema)
    }

    @Test func aMissingDatabaseIsUnavailable() async throws {
        let server = try PostgresTestServer.required()
        let url = "postgres://\(PostgresTestServer.user)@127.0.0.1:\(server.port)/no_such_database"

        let error = await #expect(throws: RecordStoreError.self) { try await PostgresRecordStore(url: url) }
        #expect(error?.kind == .unavailable)
        #expect(error?.detail.contains("no_such_database") == true)
    }
}
