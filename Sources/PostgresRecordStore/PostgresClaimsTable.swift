import Records

/// The `claims` table's statements. Each is one statement, so one round trip and one transaction, and
/// every expiry is reckoned by the server's clock.
enum PostgresClaimsTable {
    private static func fromNow(_ index: Int) -> String { "now() + $\(index)::bigint * interval '1 millisecond'" }

    /// Parameters: key, holder, station, lane, lifetime in milliseconds, even if provisioned, success code, the
    /// gone holder it may replace. Takes the unit unless provisioned or held by a live claim of another holder,
    /// and answers with what it found: taken, provisioned, and the claim it found (station, lane, provisioned,
    /// milliseconds left, holder).
    static let claim = """
        WITH done AS (
            SELECT EXISTS (SELECT 1 FROM attempts WHERE device_key = $1 AND code = $7) AS provisioned
        ), found AS (
            SELECT station, lane, provisioned, expires_at, holder FROM claims WHERE device_key = $1
        ), taken AS (
            INSERT INTO claims (device_key, holder, station, lane, expires_at, provisioned)
            SELECT $1, $2, $3, $4, \(fromNow(5)), false WHERE $6::boolean OR NOT (SELECT provisioned FROM done)
            ON CONFLICT (device_key) DO UPDATE SET holder = EXCLUDED.holder, station = EXCLUDED.station,
                lane = EXCLUDED.lane, expires_at = EXCLUDED.expires_at, provisioned = false
            WHERE claims.holder = EXCLUDED.holder OR (claims.holder = $8 AND NOT claims.provisioned)
                OR (claims.expires_at <= now() AND ($6::boolean OR NOT claims.provisioned))
            RETURNING 1
        )
        SELECT EXISTS (SELECT 1 FROM taken), (SELECT provisioned FROM done), found.station, found.lane,
            found.provisioned, ceil(extract(epoch FROM found.expires_at - now()) * 1000)::bigint, found.holder
        FROM (SELECT 1) AS one LEFT JOIN found ON true
        """

    static let renew = """
        UPDATE claims SET expires_at = \(fromNow(3))
        WHERE device_key = $1 AND holder = $2 AND NOT provisioned RETURNING 1
        """

    static let release = "DELETE FROM claims WHERE device_key = $1 AND holder = $2 AND NOT provisioned"

    /// The attempts insert (one parameter per column) with the claim it settles (key, holder, succeeded, the
    /// parameters after those; a NULL key settles none) in the same statement: kept as provisioned on success,
    /// dropped otherwise; like ``PostgresAttemptsTable/insertAndNotify`` it notifies live views of the new row.
    static let insertSettling: String = {
        let (key, holder, succeeded) = (
            PostgresAttemptsTable.columns.count + 1, PostgresAttemptsTable.columns.count + 2,
            PostgresAttemptsTable.columns.count + 3
        )
        return """
            WITH recorded AS (\(PostgresAttemptsTable.insert) RETURNING id), settled AS (
                UPDATE claims SET provisioned = true, expires_at = now()
                WHERE device_key = $\(key) AND holder = $\(holder) AND $\(succeeded)::boolean
            ), released AS (
                DELETE FROM claims WHERE device_key = $\(key) AND holder = $\(holder) AND NOT $\(succeeded)::boolean
                  AND NOT provisioned
            )
            SELECT pg_notify('\(PostgresAttemptsTable.channel)', id::text) FROM recorded
            """
    }()

    static func claimParameters(_ claim: UnitClaim, evenIfProvisioned: Bool) -> [String?] {
        [
            claim.deviceKey, claim.holder, claim.station, claim.lane, String(claim.lifetimeMilliseconds),
            evenIfProvisioned ? "true" : "false", ProvisioningRecord.successCode, claim.replacing,
        ]
    }

    static func outcome(_ row: [String?]?) throws(RecordStoreError) -> UnitClaimOutcome {
        guard let row, row.count == 7 else {
            throw RecordStoreError(.failed, "a claim's answer does not match the schema")
        }
        if row[0] == "t" { return .claimed }
        if row[1] == "t" || row[4] == "t" { return .provisioned }
        // No claim in view: another station's claim was committed after this statement began.
        let left = row[5].flatMap { Int64($0) } ?? 0
        return .heldElsewhere(
            UnitClaimHeld(
                holder: row[6] ?? "", station: row[2] ?? "", lane: row[3] ?? "", expiresIn: .milliseconds(max(0, left)))
        )
    }
}
