import DescriptorWaits
public import Records

import class FoundationEssentials.JSONEncoder

/// Records in a PostgreSQL database: one store for a whole line, so a device provisioned at one
/// station counts as done at every other.
///
/// libpq connects with the URL as given; keep the password out of it (in `~/.pgpass` or
/// `PGPASSWORD`, which libpq reads), since a URL on the command line is visible to other users.
/// Error details never contain the URL's password. Every libpq call runs on the store's own queue.
public actor PostgresRecordStore: ProvisioningRecordStore, RecordFeed {
    /// The server, shown and quoted without the URL's secrets.
    public nonisolated let place: RecordStorePlace
    private let executor: RecordStoreQueueExecutor
    private let connection: LibPQConnection
    /// What the database holds; a writer brings it to the current version, a reader takes it as found.
    private let layout: PostgresSchema.Layout
    /// Whether the connection listens for stations' notifications.
    private var isListening = false

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Connects with a `postgres://` or `postgresql://` URL and creates or checks the schema.
    ///
    /// Throws `.unavailable` when the server cannot be reached or refuses the login (within
    /// `connectTimeout`, unless the URL sets `connect_timeout`), and `.incompatibleSchema` for tables a
    /// newer ztprov or somebody else made.
    public init(url: String, connectTimeout: Duration = .seconds(10)) async throws(RecordStoreError) {
        let place = RecordStorePlace.postgres(url: url)
        self.place = place
        executor = RecordStoreQueueExecutor(label: "ztprov.postgres")
        connection = LibPQConnection()
        layout = .version(PostgresSchema.version)
        try await redacting { () throws(RecordStoreError) in
            try connection.connect(url: url, connectTimeout: connectTimeout)
            try prepareSchema()
        }
    }

    /// Connects for reading only (`ztprov report`): the session's transactions are read-only, so the
    /// server refuses any write, the schema is checked but never created, and a statement that would
    /// wait on a writer's lock for longer than ``readLockTimeout`` fails instead. A role that may only
    /// `SELECT` is enough.
    public init(readingURL url: String, connectTimeout: Duration = .seconds(10)) async throws(RecordStoreError) {
        let place = RecordStorePlace.postgres(url: url)
        self.place = place
        executor = RecordStoreQueueExecutor(label: "ztprov.postgres")
        let connection = LibPQConnection()
        self.connection = connection
        layout = try Self.redacting(at: place) { () throws(RecordStoreError) in
            try connection.connect(url: url, connectTimeout: connectTimeout)
            try connection.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
            try connection.execute("SET lock_timeout = \(Self.readLockTimeout.components.seconds * 1000)")
            return try Self.layout(on: connection)
        }
    }

    /// How long a read-only store's statement waits for a lock before it fails.
    public static let readLockTimeout: Duration = .seconds(2)

    /// Whether the session refuses writes (`transaction_read_only`), as the server reports it.
    var isReadOnlySession: Bool {
        get throws(RecordStoreError) { try connection.execute("SHOW transaction_read_only").first?[0] == "on" }
    }

    public func append(_ record: ProvisioningRecord, settling claim: UnitClaim? = nil) async throws(RecordStoreError) {
        let parameters = try PostgresAttemptsTable.parameters(record)
        try await redacting { () throws(RecordStoreError) in
            guard let claim else {
                try connection.execute(PostgresAttemptsTable.insertAndNotify, parameters)
                return
            }
            try connection.execute(
                PostgresClaimsTable.insertSettling,
                parameters + [claim.deviceKey, claim.holder, record.succeeded ? "true" : "false"])
        }
    }

    public func claim(_ claim: UnitClaim, evenIfProvisioned: Bool) async throws(RecordStoreError) -> UnitClaimOutcome {
        let rows = try await redacting { () throws(RecordStoreError) in
            try connection.execute(
                PostgresClaimsTable.claim,
                PostgresClaimsTable.claimParameters(claim, evenIfProvisioned: evenIfProvisioned))
        }
        return try PostgresClaimsTable.outcome(rows.first)
    }

    public func renew(_ claim: UnitClaim) async throws(RecordStoreError) -> Bool {
        try await redacting { () throws(RecordStoreError) in
            try !connection.execute(
                PostgresClaimsTable.renew, [claim.deviceKey, claim.holder, String(claim.lifetimeMilliseconds)]
            ).isEmpty
        }
    }

    public func release(_ claim: UnitClaim) async throws(RecordStoreError) {
        try await redacting { () throws(RecordStoreError) in
            try connection.execute(PostgresClaimsTable.release, [claim.deviceKey, claim.holder])
        }
    }

    public func provisionedDeviceKeys(among keys: Set<String>) async throws(RecordStoreError) -> Set<String> {
        guard !keys.isEmpty else { return [] }
        guard let data = try? JSONEncoder().encode(keys.sorted()) else {
            throw RecordStoreError(.failed, "cannot encode the device keys")
        }
        let rows = try await redacting { () throws(RecordStoreError) in
            try connection.execute(
                PostgresAttemptsTable.provisionedKeys,
                [ProvisioningRecord.successCode, String(decoding: data, as: UTF8.self)])
        }
        return Set(rows.compactMap { $0.first ?? nil })
    }

    public func records(matching query: RecordQuery) async throws(RecordStoreError) -> [ProvisioningRecord] {
        guard layout != .empty else { return [] }
        let since = query.since.map { String(PostgresAttemptsTable.microseconds($0)) }
        let rows = try await redacting { () throws(RecordStoreError) in
            try connection.execute(
                PostgresAttemptsTable.select(missingColumns: layout.missingColumns), [since, query.station])
        }
        var records: [ProvisioningRecord] = []
        for row in rows { records.append(try PostgresAttemptsTable.record(row)) }
        return records
    }

    public func records(after number: Int64, limit: Int) async throws(RecordStoreError) -> [NumberedRecord] {
        guard layout != .empty else { return [] }
        let rows = try await redacting { () throws(RecordStoreError) in
            try connection.execute(
                PostgresAttemptsTable.feed(missingColumns: layout.missingColumns),
                [String(number), String(limit)])
        }
        var records: [NumberedRecord] = []
        for row in rows {
            guard let number = row.last.flatMap({ $0.flatMap { Int64($0) } }) else {
                throw RecordStoreError(.failed, "a row of attempts has no number")
            }
            records.append(
                NumberedRecord(number: number, record: try PostgresAttemptsTable.record(Array(row.dropLast()))))
        }
        return records
    }

    /// Waits at most `timeout` for a station to say it recorded an attempt (each store's `append` notifies);
    /// true when one did. The first call starts listening, and so does the first call after a lost connection.
    public func awaitRecordNotification(within timeout: Duration) async throws(RecordStoreError) -> Bool {
        try await redacting { () throws(RecordStoreError) in
            if !isListening {
                try connection.execute("LISTEN \(PostgresAttemptsTable.channel)")
                isListening = true
            }
            do throws(RecordStoreError) {
                return try connection.awaitNotification(within: timeout)
            } catch {
                isListening = false
                throw error
            }
        }
    }

    /// Creates the tables in an empty database, migrates older ones or checks them, under an advisory
    /// lock so stations starting at once do not both create or migrate them.
    private func prepareSchema() throws(RecordStoreError) {
        try connection.execute("BEGIN")
        do {
            try connection.execute("SELECT pg_advisory_xact_lock(x'\(PostgresSchema.setupLock)'::bigint)")
            switch try Self.layout(on: connection) {
            case .empty:
                for statement in PostgresSchema.creation { try connection.execute(statement) }
            case .version(let found):
                for statement in PostgresSchema.migrations[found] ?? [] { try connection.execute(statement) }
            }
            try connection.execute("COMMIT")
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// The layout the database holds, judged from which tables exist and the version recorded.
    private static func layout(on connection: LibPQConnection) throws(RecordStoreError) -> PostgresSchema.Layout {
        let tables = try connection.execute(
            "SELECT to_regclass('attempts') IS NOT NULL, to_regclass('ztprov_schema') IS NOT NULL")
        let hasSchemaTable = tables.first?[1] == "t"
        let version =
            hasSchemaTable ? try connection.execute("SELECT max(version) FROM ztprov_schema").first?[0] ?? nil : nil
        let recorded = hasSchemaTable ? Int(version ?? "") ?? -1 : nil
        return try PostgresSchema.assess(hasAttempts: tables.first?[0] == "t", recordedVersion: recorded)
    }

    /// Runs `body` on the store's thread, its waits on the server ending when the task is cancelled, and takes
    /// the URL's password out of any error it throws.
    @discardableResult
    private func redacting<T>(_ body: () throws(RecordStoreError) -> T) async throws(RecordStoreError) -> T {
        try await CancellationWake.cancellable { () throws(RecordStoreError) in try Self.redacting(at: place, body) }
    }

    private static func redacting<T>(at place: RecordStorePlace, _ body: () throws(RecordStoreError) -> T)
        throws(RecordStoreError) -> T
    {
        do {
            return try body()
        } catch {
            throw RecordStoreError(error.kind, place.redacting(error.detail))
        }
    }
}
