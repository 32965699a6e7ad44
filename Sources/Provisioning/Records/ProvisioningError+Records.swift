public import Records

/// How a record store's failure reads to a person: which database, what it said, what to check.
extension ProvisioningError {
    /// What the command was doing with the records when the store failed.
    public enum RecordsActivity: Sendable {
        case opening
        case writing
        case reading
    }

    /// Maps a store failure at `place` (shown without its secrets); the store's words go into the message,
    /// since they name the actual cause (permissions, refused connection, full disk).
    public static func records(
        _ error: RecordStoreError, at place: RecordStorePlace, while activity: RecordsActivity
    )
        -> ProvisioningError
    {
        var detail = place.redacting(error.detail)
        while detail.hasSuffix(".") { detail.removeLast() }
        switch (error.kind, activity) {
        case (.incompatibleSchema, _):
            return ProvisioningError(
                .recordsIncompatibleSchema,
                "The records database \(place) is not one this ztprov can use: \(detail).",
                hint: "If a newer ztprov wrote it, upgrade this one; otherwise pass --db (or set ZTPROV_DB) with "
                    + "a new file or database.", detail: detail)
        case (.unavailable, _), (.failed, .opening):
            return ProvisioningError(
                .recordsUnavailable, "Cannot open the records database \(place): \(detail).",
                hint: unavailableHint(place.kind), detail: detail)
        case (.failed, .writing):
            return ProvisioningError(
                .recordsWriteFailed, "Could not record the attempt in \(place): \(detail).",
                hint: "Check free disk space and, for PostgreSQL, the server's log; this attempt is not recorded.",
                detail: detail)
        case (.failed, .reading):
            return ProvisioningError(
                .recordsReadFailed, "Could not read the records from \(place): \(detail).",
                hint: "Check the database is intact (sqlite3 FILE 'PRAGMA integrity_check') or the server's log.",
                detail: detail)
        }
    }

    private static func unavailableHint(_ kind: RecordStorePlace.Kind) -> String {
        switch kind {
        case .file:
            "Check that this user can create and write the file and its directory, or pass --db (or set "
                + "ZTPROV_DB) with another path."
        case .server:
            "Check that the PostgreSQL server is running and reachable and the URL's host, port, database and "
                + "user; keep the password in ~/.pgpass or PGPASSWORD."
        }
    }
}
