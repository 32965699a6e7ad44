import Records

/// The database's layout, version 4: the same `attempts` and `claims` tables as the SQLite file
/// (timestamps as `timestamptz`, steps as `jsonb`) and a one-row `ztprov_schema` table holding the version. An older
/// version is brought up to date by the first station that writes to it; readers take it as it is.
enum PostgresSchema {
    /// The schema this build writes and reads.
    static let version = 4
    /// The advisory lock that keeps stations starting at once from creating the tables twice.
    static let setupLock = "7a747072"

    static let creation = [
        "CREATE TABLE ztprov_schema (version integer NOT NULL)",
        "INSERT INTO ztprov_schema (version) VALUES (\(version))",
        """
        CREATE TABLE attempts (
            id bigserial PRIMARY KEY,
            batch_id text NOT NULL,
            station text NOT NULL,
            adapter text NOT NULL,
            device_key text NOT NULL,
            address text,
            device_id text,
            path text NOT NULL,
            security text,
            attempt integer NOT NULL,
            is_final boolean NOT NULL,
            code text NOT NULL,
            message text,
            started_at timestamptz NOT NULL,
            finished_at timestamptz NOT NULL,
            steps jsonb NOT NULL,
            firmware_blufi text,
            firmware_protocomm text,
            firmware_device text,
            protocol text,
            secured_with text
        )
        """,
        "CREATE INDEX attempts_device_key ON attempts (device_key)",
        "CREATE INDEX attempts_started_at ON attempts (started_at)",
        claimsCreation,
    ]

    /// One row per claimed unit: who holds it until when (by the server's clock, so stations' clocks
    /// need not agree), or that its holder provisioned it.
    static let claimsCreation = """
        CREATE TABLE claims (
            device_key text PRIMARY KEY,
            holder text NOT NULL,
            station text NOT NULL,
            lane text NOT NULL,
            expires_at timestamptz NOT NULL,
            provisioned boolean NOT NULL
        )
        """

    /// The statements that take version N (the key) to the current one. Version 2 added `protocol`,
    /// version 3 the `claims` table, version 4 `secured_with`.
    static let migrations: [Int: [String]] = [
        1: ["ALTER TABLE attempts ADD COLUMN protocol text", claimsCreation, addSecuredWith, setVersion],
        2: [claimsCreation, addSecuredWith, setVersion],
        3: [addSecuredWith, setVersion],
    ]

    private static let addSecuredWith = "ALTER TABLE attempts ADD COLUMN secured_with text"
    private static let setVersion = "UPDATE ztprov_schema SET version = \(version)"

    /// What the database holds.
    enum Layout: Equatable {
        /// No tables yet.
        case empty
        /// ztprov's tables at `version`, this build's or an older one it can read and migrate.
        case version(Int)

        /// The `attempts` columns an older version lacks, which read as NULL.
        var missingColumns: Set<String> {
            switch self {
            case .version(1): ["protocol", "secured_with"]
            case .version(let found) where found < PostgresSchema.version: ["secured_with"]
            default: []
            }
        }
    }

    /// The layout, judged from which tables exist and the recorded version.
    static func assess(hasAttempts: Bool, recordedVersion: Int?) throws(RecordStoreError) -> Layout {
        switch recordedVersion {
        case nil where !hasAttempts: return .empty
        case nil:
            throw RecordStoreError(.incompatibleSchema, "the database has an attempts table that ztprov did not create")
        case let found? where found != version && migrations[found] == nil:
            throw RecordStoreError(
                .incompatibleSchema, "the records schema is version \(found); this ztprov reads version \(version)")
        case let found?: return .version(found)
        }
    }
}
