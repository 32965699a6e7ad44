import DescriptorWaits
import Glibc
public import Records

import struct FoundationEssentials.CocoaError
import struct FoundationEssentials.Data
import struct FoundationEssentials.Date
import class FoundationEssentials.FileManager
import class FoundationEssentials.JSONEncoder
import struct FoundationEssentials.POSIXError
import struct FoundationEssentials.URL

/// Records in an SQLite file: the default store, one file per station, shared by the station's processes.
///
/// The file runs in WAL mode with `synchronous=FULL`, so `append` returns only after the record is on
/// disk, and readers (`ztprov report`) never block a writer. Processes that write at once wait for
/// each other up to ``busyTimeout``. Every SQLite call runs on the store's own dispatch queue.
public actor SQLiteRecordStore: ProvisioningRecordStore, RecordFeed {
    /// How long a write waits for another process's write to finish before failing.
    public static let busyTimeout: Duration = .seconds(10)

    /// The file, as given.
    public nonisolated let path: String
    private let executor: RecordStoreQueueExecutor
    private let database = SQLiteDatabase()

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Opens the file at `path`, creating it and its parent directories, and its schema, when missing.
    ///
    /// Throws `.unavailable` when the file cannot be created or opened, and `.incompatibleSchema` for
    /// a file a newer ztprov wrote, or that is not ztprov's.
    ///
    /// The file's header is judged before anything is written: another application's database or a
    /// newer schema is refused exactly as it was found (not even switched to WAL).
    public init(path: String) async throws(RecordStoreError) {
        self.path = path
        executor = RecordStoreQueueExecutor(label: "ztprov.sqlite")
        try Self.createParentDirectory(of: path)
        try database.open(path: path, busyTimeout: Self.busyTimeout)
        _ = try assessSchema()
        try switchToWriteAheadLog()
        try database.execute("PRAGMA synchronous = FULL")
        try await prepareSchema()
    }

    /// Opens an existing file for reading only (`ztprov report`): never creates it, never writes,
    /// works for a user who may only read it, and waits at most ``readBusyTimeout`` for a lock.
    public init(readingPath path: String) async throws(RecordStoreError) {
        self.path = path
        executor = RecordStoreQueueExecutor(label: "ztprov.sqlite.read")
        do {
            try database.open(path: path, busyTimeout: Self.readBusyTimeout, readOnly: true)
            layout = try Self.assess(database)
        } catch  where error.kind == .unavailable && Self.hasNoWriteAheadLog(path) {
            // A WAL file read by a user who cannot create its `-shm` file (a read-only directory):
            // with no `-wal` file beside it (closed cleanly, no writer open) the main file holds every
            // record and cannot change under us, so SQLite may read it as immutable.
            try database.open(path: path, busyTimeout: Self.readBusyTimeout, readOnly: true, immutable: true)
            layout = try Self.assess(database)
        }
    }

    /// True when `path` has no `-wal` file beside it: nothing waits to be checkpointed, and no
    /// connection in WAL mode has the file open (each keeps a `-wal` file while open).
    private static func hasNoWriteAheadLog(_ path: String) -> Bool {
        var status = stat()
        return stat(path + "-wal", &status) != 0
    }

    /// A reader's bound on lock waits: in WAL mode readers need none, so a wait means a writer in
    /// another journal mode or a stuck process, and the report fails rather than hang.
    public static let readBusyTimeout: Duration = .milliseconds(200)

    /// The schema found when opened for reading; a writer brings the file to the current version.
    private var layout = SQLiteSchema.Layout.version(SQLiteSchema.version)

    public func append(_ record: ProvisioningRecord, settling claim: UnitClaim? = nil) async throws(RecordStoreError) {
        try await inImmediateTransaction { () throws(RecordStoreError) in
            try run(SQLiteAttemptsTable.insert, SQLiteAttemptsTable.values(record))
            guard let claim else { return }
            if record.succeeded {
                try run(SQLiteClaimsTable.settleProvisioned, Self.key(claim) + [.integer(Self.microsecondsNow())])
            } else {
                try run(SQLiteClaimsTable.release, Self.key(claim))
            }
        }
    }

    public func claim(_ claim: UnitClaim, evenIfProvisioned: Bool) async throws(RecordStoreError) -> UnitClaimOutcome {
        try await inImmediateTransaction { () throws(RecordStoreError) in
            let now = Self.microsecondsNow()
            let provisioned =
                try run(
                    SQLiteClaimsTable.provisionedInAttempts,
                    [.text(claim.deviceKey), .text(ProvisioningRecord.successCode)]
                ).first?.first?.integer == 1
            let current = try run(SQLiteClaimsTable.current, [.text(claim.deviceKey)]).first.flatMap(
                SQLiteClaimsTable.row)
            let outcome = claim.outcome(
                over: current, provisionedInAttempts: provisioned, evenIfProvisioned: evenIfProvisioned,
                now: SQLiteAttemptsTable.date(microseconds: now))
            if outcome == .claimed {
                try run(
                    SQLiteClaimsTable.take,
                    Self.key(claim) + [
                        .text(claim.station), .text(claim.lane), .integer(now + claim.lifetimeMilliseconds * 1000),
                    ])
            }
            return outcome
        }
    }

    public func renew(_ claim: UnitClaim) async throws(RecordStoreError) -> Bool {
        let expiresAt = Self.microsecondsNow() + claim.lifetimeMilliseconds * 1000
        return try await CancellationWake.cancellable { () throws(RecordStoreError) in
            try !run(SQLiteClaimsTable.renew, Self.key(claim) + [.integer(expiresAt)]).isEmpty
        }
    }

    public func release(_ claim: UnitClaim) async throws(RecordStoreError) {
        try await CancellationWake.cancellable { () throws(RecordStoreError) in
            _ = try run(SQLiteClaimsTable.release, Self.key(claim))
        }
    }

    /// Runs one statement to its end; its rows.
    @discardableResult
    private func run(_ sql: String, _ values: [SQLiteValue]) throws(RecordStoreError) -> [[SQLiteValue]] {
        let statement = try database.prepare(sql)
        try statement.bind(values)
        return try statement.rows()
    }

    /// A claim's key columns, the first two parameters of every claims statement.
    private static func key(_ claim: UnitClaim) -> [SQLiteValue] { [.text(claim.deviceKey), .text(claim.holder)] }

    private static func microsecondsNow() -> Int64 { SQLiteAttemptsTable.microseconds(Date()) }

    /// Runs `body` in a write transaction taken at once, so no other process's claim or record comes between
    /// what it reads and what it writes; a wait for another connection's lock notices at once that the task
    /// was cancelled (``SQLiteBusyWait``).
    private func inImmediateTransaction<T>(_ body: () throws(RecordStoreError) -> T) async throws(RecordStoreError)
        -> T
    {
        try await CancellationWake.cancellable { () throws(RecordStoreError) in
            try database.execute("BEGIN IMMEDIATE")
            do throws(RecordStoreError) {
                let result = try body()
                try database.execute("COMMIT")
                return result
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        }
    }

    public func provisionedDeviceKeys(among keys: Set<String>) throws(RecordStoreError) -> Set<String> {
        guard !keys.isEmpty else { return [] }
        let statement = try database.prepare(SQLiteAttemptsTable.provisionedKeys)
        try statement.bind([.text(ProvisioningRecord.successCode), .text(try Self.jsonArray(keys))])
        return Set(try statement.rows().compactMap { $0.first?.text })
    }

    public func records(matching query: RecordQuery) throws(RecordStoreError) -> [ProvisioningRecord] {
        guard layout != .empty else { return [] }
        let statement = try database.prepare(SQLiteAttemptsTable.select(missingColumns: layout.missingColumns))
        try statement.bind([
            query.since.map { .integer(SQLiteAttemptsTable.microseconds($0)) } ?? .null, SQLiteValue(query.station),
        ])
        var records: [ProvisioningRecord] = []
        for row in try statement.rows() { records.append(try SQLiteAttemptsTable.record(row)) }
        return records
    }

    public func records(after number: Int64, limit: Int) throws(RecordStoreError) -> [NumberedRecord] {
        // A file a writer had not yet given its schema when it was opened may have one now.
        if layout == .empty { layout = try Self.assess(database) }
        guard layout != .empty else { return [] }
        let statement = try database.prepare(SQLiteAttemptsTable.feed(missingColumns: layout.missingColumns))
        try statement.bind([.integer(number), .integer(Int64(limit))])
        var records: [NumberedRecord] = []
        for row in try statement.rows() {
            guard let number = row.last?.integer else {
                throw RecordStoreError(.failed, "a row of attempts has no number")
            }
            records.append(
                NumberedRecord(number: number, record: try SQLiteAttemptsTable.record(Array(row.dropLast()))))
        }
        return records
    }

    /// SQLite's `data_version` for this connection: it moves once another connection's commit can be read
    /// here, which a look at the files cannot tell (the log is written and synced before the commit shows).
    public func dataVersion() throws(RecordStoreError) -> Int64 {
        try database.prepare("PRAGMA data_version").step()?.first?.integer ?? 0
    }

    /// A pragma's current value on this connection (`synchronous` is per connection), for tests.
    func pragma(_ name: SQLitePragma) throws(RecordStoreError) -> String {
        let row = try database.prepare("PRAGMA \(name.rawValue)").step()
        return switch row?.first {
        case .integer(let number): String(number)
        case .text(let text): text
        case .null, nil: ""
        }
    }

    /// What the file holds; throws for a file that is not ours or newer.
    private func assessSchema() throws(RecordStoreError) -> SQLiteSchema.Layout {
        try Self.assess(database)
    }

    /// Reads the header's IDs and whether tables exist in one statement, so all three come from one
    /// snapshot: read one by one, a store created by another process in between looked like a foreign file.
    private static func assess(_ database: SQLiteDatabase) throws(RecordStoreError) -> SQLiteSchema.Layout {
        let row = try database.prepare(
            "SELECT (SELECT application_id FROM pragma_application_id), "
                + "(SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_master)"
        ).step()
        func integer(_ index: Int) -> Int64 { row.flatMap { $0.count > index ? $0[index].integer : nil } ?? -1 }
        return try SQLiteSchema.assess(
            applicationID: integer(0), userVersion: integer(1), hasTables: integer(2) > 0)
    }

    /// Switches the file to write-ahead logging. Beside another connection opening the same new file, SQLite
    /// can answer the switch "database is locked" at once, without its busy handler, so it is tried again
    /// every ``SQLiteBusyWait/step`` for up to ``busyTimeout``.
    private func switchToWriteAheadLog() throws(RecordStoreError) {
        let giveUp = ContinuousClock.now + Self.busyTimeout
        while true {
            do {
                try database.execute("PRAGMA journal_mode = WAL")
                return
            } catch  where database.lastFailureWasBusy && ContinuousClock.now < giveUp && !Task.isCancelled {
                CancellationWake.pause(SQLiteBusyWait.step)
            }
        }
    }

    /// Creates the schema in an empty file, migrates an older one or checks it, in one write transaction
    /// so two processes opening a file at once do not both create or migrate it.
    private func prepareSchema() async throws(RecordStoreError) {
        try await inImmediateTransaction { () throws(RecordStoreError) in
            switch try assessSchema() {
            case .empty:
                for statement in SQLiteSchema.creation { try database.execute(statement) }
            case .version(let found):
                for statement in SQLiteSchema.migrations[found] ?? [] { try database.execute(statement) }
            }
        }
    }

    private static func createParentDirectory(of path: String) throws(RecordStoreError) {
        let parent = URL(filePath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw RecordStoreError(
                .unavailable, "cannot create the directory \(parent.path): \(reason(error))")
        }
    }

    /// The system's words for why a file operation failed ("Permission denied").
    private static func reason(_ error: any Error) -> String {
        guard let posix = (error as? CocoaError)?.underlying as? POSIXError else { return "\(error)" }
        return String(cString: strerror(posix.code.rawValue))
    }

    private static func jsonArray(_ keys: Set<String>) throws(RecordStoreError) -> String {
        guard let data = try? JSONEncoder().encode(keys.sorted()) else {
            throw RecordStoreError(.failed, "cannot encode the device keys")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The pragmas the store reads back.
enum SQLitePragma: String {
    case journalMode = "journal_mode"
    case synchronous
    case applicationID = "application_id"
    case userVersion = "user_version"
}
