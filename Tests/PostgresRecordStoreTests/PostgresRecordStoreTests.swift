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

    @Test func feedsRecordsInStoringOrderToAReadOnlySession() async throws {
        let url = try await PostgresTestServer.required().freshDatabase()
        let writer = try await PostgresRecordStore(url: url)
        try await RecordFeedConformance.run(writer: writer, feed: PostgresRecordStore(readingURL: url))
    }

    /// A station's append notifies whoever listens (`report --serve`), once per record, in the same round trip.
    @Test(.timeLimit(.minutes(1))) func aListenerHearsEachRecordAStationAppends() async throws {
        let url = try await PostgresTestServer.required().freshDatabase()
        let writer = try await PostgresRecordStore(url: url)
        let listener = try await PostgresRecordStore(readingURL: url)
        #expect(try await listener.awaitRecordNotification(within: .zero) == false)
        try await writer.append(RecordStoreConformance.fullRecord)
        while try await !listener.awaitRecordNotification(within: .milliseconds(200)) {}
        #expect(try await listener.awaitRecordNotification(within: .zero) == false, "each notification is taken once")
        #expect(try await listener.records(after: 0, limit: 10).map(\.record) == [RecordStoreConformance.fullRecord])
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
        try await server.psql(url, "UPDATE ztprov_schema SET version = 5")

        let error = await #expect(throws: RecordStoreError.self) { try await PostgresRecordStore(url: url) }
        #expect(error?.kind == .incompatibleSchema)
        #expect(error?.detail.contains("version 5") == true)
    }

    /// A database of schema version 1 (before `protocol`): a reader takes it as it is, the first writer adds
    /// the column, and the old rows survive with no protocol.
    @Test func aVersion1DatabaseIsReadAsItIsAndMigratedByTheFirstWriter() async throws {
        let server = try PostgresTestServer.required()
        let url = try await server.freshDatabase()
        try await server.psql(
            url,
            """
            CREATE TABLE ztprov_schema (version integer NOT NULL); INSERT INTO ztprov_schema (version) VALUES (1);
            CREATE TABLE attempts (id bigserial PRIMARY KEY, batch_id text NOT NULL, station text NOT NULL,
            adapter text NOT NULL, device_key text NOT NULL, address text, device_id text, path text NOT NULL,
            security text, attempt integer NOT NULL, is_final boolean NOT NULL, code text NOT NULL, message text,
            started_at timestamptz NOT NULL, finished_at timestamptz NOT NULL, steps jsonb NOT NULL,
            firmware_blufi text, firmware_protocomm text, firmware_device text);
            INSERT INTO attempts (batch_id, station, adapter, device_key, path, attempt, is_final, code, started_at,
            finished_at, steps) VALUES ('b0', 'line-1', 'hci0', 'lamp-0', 'ble', 1, true, 'ok',
            '2023-11-14T22:13:20Z', '2023-11-14T22:13:21Z', '[]');
            """)
        let old = try await PostgresRecordStore(readingURL: url).records(matching: RecordQuery())
        #expect(old.map(\.deviceKey) == ["lamp-0"] && old.first?.provisioningProtocol == nil)

        let writer = try await PostgresRecordStore(url: url)
        try await writer.append(RecordStoreConformance.fullRecord)
        let all = try await writer.records(matching: RecordQuery())
        #expect(all.map(\.deviceKey) == ["lamp-0", RecordStoreConformance.fullRecord.deviceKey])
        #expect(all.last?.provisioningProtocol == "protocomm")
        let reread = try await PostgresRecordStore(readingURL: url).records(matching: RecordQuery())
        #expect(reread == all)
        let claim = RecordStoreConformance.claim("lamp-0", by: "batch-a")
        #expect(try await writer.claim(claim, evenIfProvisioned: false) == .provisioned)
    }

    /// A database of schema version 2 (before claims): a reader takes it as it is, the first writer adds the
    /// claims table and claims work.
    @Test func aVersion2DatabaseGainsClaimsFromTheFirstWriterOnly() async throws {
        let server = try PostgresTestServer.required()
        let url = try await server.freshDatabase()
        try await PostgresRecordStore(url: url).append(RecordStoreConformance.record("lamp-0"))
        try await server.psql(
            url,
            "DROP TABLE claims; ALTER TABLE attempts DROP COLUMN secured_with; UPDATE ztprov_schema SET version = 2")
        let old = try await PostgresRecordStore(readingURL: url).records(matching: RecordQuery())
        #expect(old.map(\.deviceKey) == ["lamp-0"])
        let reader = try await PostgresRecordStore(readingURL: url)
        let claim = RecordStoreConformance.claim("lamp-1", by: "batch-a")
        await #expect(throws: RecordStoreError.self) { try await reader.claim(claim, evenIfProvisioned: false) }

        let writer = try await PostgresRecordStore(url: url)
        #expect(try await writer.claim(claim, evenIfProvisioned: false) == .claimed)
        #expect(try await writer.records(matching: RecordQuery()) == old)
    }

    /// A database of schema version 3 (before `secured_with`): a reader takes its rows as they are, with no
    /// security known; the first writer adds the column and the old rows keep reading the same.
    @Test func aVersion3DatabaseGainsSecuredWithFromTheFirstWriterOnly() async throws {
        let server = try PostgresTestServer.required()
        let url = try await server.freshDatabase()
        var older = RecordStoreConformance.record("lamp-0")
        older.security = "sec0"
        try await PostgresRecordStore(url: url).append(older)
        try await server.psql(
            url, "ALTER TABLE attempts DROP COLUMN secured_with; UPDATE ztprov_schema SET version = 3")
        #expect(try await PostgresRecordStore(readingURL: url).records(matching: RecordQuery()) == [older])

        let writer = try await PostgresRecordStore(url: url)
        try await writer.append(RecordStoreConformance.fullRecord)
        let all = try await PostgresRecordStore(readingURL: url).records(matching: RecordQuery())
        #expect(all == [older, RecordStoreConformance.fullRecord])
    }

    /// Two stations claiming the same units at once: each unit goes to exactly one of them.
    @Test func stationsClaimingAtOnceNeverBothWin() async throws {
        let server = try PostgresTestServer.required()
        let url = try await server.freshDatabase()
        let stations = [try await PostgresRecordStore(url: url), try await PostgresRecordStore(url: url)]
        let keys = (0..<40).map { "lamp-\($0)" }
        let winners = try await withThrowingTaskGroup(of: [String].self) { group in
            for (index, store) in stations.enumerated() {
                group.addTask {
                    var won: [String] = []
                    for key in keys {
                        let claim = RecordStoreConformance.claim(key, by: "batch-\(index)")
                        if try await store.claim(claim, evenIfProvisioned: false) == .claimed { won.append(key) }
                    }
                    return won
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(winners.sorted() == keys.sorted())
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
