/// The codes of the provisioning records: the SQLite file or PostgreSQL database a station writes.
///
/// All but the location are host problems (3): the station's disk, permissions or database server,
/// not the device.
extension ErrorCode {
    /// `--db` or `ZTPROV_DB` is empty or has a URL scheme that is neither `postgres(ql)://` nor `sqlite:`.
    public static let recordsInvalidLocation = ErrorCode("records.invalid-location", .usage)
    /// The database cannot be opened or reached: path, permissions, server down, login refused.
    public static let recordsUnavailable = ErrorCode("records.unavailable", .hostPrecondition)
    /// A newer ztprov's schema, or a database that is not ztprov's.
    public static let recordsIncompatibleSchema = ErrorCode("records.incompatible-schema", .hostPrecondition)
    /// An attempt could not be stored (disk full, I/O error, lock held too long).
    public static let recordsWriteFailed = ErrorCode("records.write-failed", .hostPrecondition)
    /// Records could not be read back for a report.
    public static let recordsReadFailed = ErrorCode("records.read-failed", .hostPrecondition)

    /// The records codes, joined into ``catalogue``.
    static let recordsCatalogue: [ErrorCode] = [
        .recordsInvalidLocation, .recordsUnavailable, .recordsIncompatibleSchema, .recordsWriteFailed, .recordsReadFailed,
    ]
}
