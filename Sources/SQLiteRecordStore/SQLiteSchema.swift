import Records

/// The file's layout, version 4: one `attempts` table with a column per record field, and the `claims`
/// stations hold on units while they work on them.
///
/// `application_id` marks the file as ztprov's and `user_version` holds the schema version, so a
/// newer ztprov's file or somebody else's database is refused rather than written into. An older
/// version is brought up to date by the first store that writes to it; readers take it as it is.
enum SQLiteSchema {
    /// The schema this build writes and reads.
    static let version: Int64 = 4
    /// "ztpr" as a big-endian integer.
    static let applicationID: Int64 = 0x7A74_7072

    /// The statements that create the current version in an empty file.
    static let creation = [
        """
        CREATE TABLE attempts (
            id INTEGER PRIMARY KEY,
            batch_id TEXT NOT NULL,
            station TEXT NOT NULL,
            adapter TEXT NOT NULL,
            device_key TEXT NOT NULL,
            address TEXT,
            device_id TEXT,
            path TEXT NOT NULL,
            security TEXT,
            attempt INTEGER NOT NULL,
            is_final INTEGER NOT NULL,
            code TEXT NOT NULL,
            message TEXT,
            started_at INTEGER NOT NULL, -- microseconds since 1970-01-01T00:00:00Z
            finished_at INTEGER NOT NULL,
            steps TEXT NOT NULL, -- JSON: [{"milliseconds": 412, "name": "connect"}, ...]
            firmware_blufi TEXT,
            firmware_protocomm TEXT,
            firmware_device TEXT,
            protocol TEXT,
            secured_with TEXT -- ProvisioningSecurity.text: blufi-v2, protocomm-sec1-pop, improv+encrypted-link
        )
        """,
        "CREATE INDEX attempts_device_key ON attempts (device_key)",
        "CREATE INDEX attempts_started_at ON attempts (started_at)",
        claimsCreation,
        "PRAGMA application_id = \(applicationID)",
        "PRAGMA user_version = \(version)",
    ]

    /// One row per claimed unit: who holds it until when, or that its holder provisioned it.
    static let claimsCreation = """
        CREATE TABLE claims (
            device_key TEXT PRIMARY KEY,
            holder TEXT NOT NULL,
            station TEXT NOT NULL,
            lane TEXT NOT NULL,
            expires_at INTEGER NOT NULL, -- microseconds since 1970-01-01T00:00:00Z
            provisioned INTEGER NOT NULL
        )
        """

    /// The statements that take version N (the key) to the current one. Version 2 added `protocol`,
    /// version 3 the `claims` table, version 4 `secured_with`.
    static let migrations: [Int64: [String]] = [
        1: ["ALTER TABLE attempts ADD COLUMN protocol TEXT", claimsCreation, addSecuredWith, setVersion],
        2: [claimsCreation, addSecuredWith, setVersion],
        3: [addSecuredWith, setVersion],
    ]

    private static let addSecuredWith = "ALTER TABLE attempts ADD COLUMN secured_with TEXT"
    private static let setVersion = "PRAGMA user_version = \(version)"

    /// What a file holds, judged from its header fields and whether it has any table yet.
    enum Layout: Equatable {
        /// No schema yet.
        case empty
        /// ztprov's schema at `version`, this build's or an older one it can read and migrate.
        case version(Int64)

        /// The `attempts` columns an older version lacks, which read as NULL.
        var missingColumns: Set<String> {
            switch self {
            case .version(1): ["protocol", "secured_with"]
            case .version(let found) where found < SQLiteSchema.version: ["secured_with"]
            default: []
            }
        }
    }

    static func assess(applicationID: Int64, userVersion: Int64, hasTables: Bool) throws(RecordStoreError) -> Layout {
        if applicationID == 0, userVersion == 0, !hasTables { return .empty }
        guard applicationID == Self.applicationID else {
            throw RecordStoreError(.incompatibleSchema, "the file is an SQLite database that ztprov did not create")
        }
        guard userVersion == version || migrations[userVersion] != nil else {
            throw RecordStoreError(
                .incompatibleSchema,
                "the records schema is version \(userVersion); this ztprov reads version \(version)")
        }
        return .version(userVersion)
    }
}
