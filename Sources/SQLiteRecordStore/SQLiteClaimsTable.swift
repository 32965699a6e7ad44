import Records

/// The `claims` table's statements; expiry times are microseconds since the epoch by this host's clock
/// (an SQLite file is shared only by the processes of one station).
enum SQLiteClaimsTable {
    static let current = "SELECT holder, station, lane, expires_at, provisioned FROM claims WHERE device_key = ?1"

    static let provisionedInAttempts = "SELECT EXISTS (SELECT 1 FROM attempts WHERE device_key = ?1 AND code = ?2)"

    static let take = """
        INSERT OR REPLACE INTO claims (device_key, holder, station, lane, expires_at, provisioned)
        VALUES (?1, ?2, ?3, ?4, ?5, 0)
        """

    static let renew = """
        UPDATE claims SET expires_at = ?3 WHERE device_key = ?1 AND holder = ?2 AND provisioned = 0 RETURNING 1
        """

    /// The holder's claim becomes the unit's settlement; it has run out already, so `--force` may take it.
    static let settleProvisioned = """
        UPDATE claims SET provisioned = 1, expires_at = ?3 WHERE device_key = ?1 AND holder = ?2
        """

    static let release = "DELETE FROM claims WHERE device_key = ?1 AND holder = ?2 AND provisioned = 0"

    static func row(_ values: [SQLiteValue]) -> UnitClaimRow? {
        guard values.count == 5, let holder = values[0].text, let expires = values[3].integer else { return nil }
        return UnitClaimRow(
            holder: holder, station: values[1].text ?? "", lane: values[2].text ?? "",
            expiresAt: SQLiteAttemptsTable.date(microseconds: expires), provisioned: values[4].integer == 1)
    }
}
