/// Where attempts are kept: an embedded SQLite file by default, a shared PostgreSQL database for a line.
///
/// `append` returns only once the record is durable, so a power cut after it loses nothing that was
/// reported as recorded. Errors are ``RecordStoreError``.
///
/// Stations sharing a store claim a unit (``UnitClaim``) before they connect to it, so two stations never
/// provision one unit at once; a store opened for reading never writes a claim.
public protocol ProvisioningRecordStore: Sendable {
    /// Stores one attempt durably and, in the same transaction, settles `claim` if given: kept as the
    /// unit's settlement when the attempt succeeded, dropped otherwise so the unit may be tried again.
    func append(_ record: ProvisioningRecord, settling claim: UnitClaim?) async throws

    /// The device keys, among `keys`, that already have a successful attempt (on any station).
    func provisionedDeviceKeys(among keys: Set<String>) async throws -> Set<String>

    /// The records the query selects, oldest first.
    func records(matching query: RecordQuery) async throws -> [ProvisioningRecord]

    /// Claims the unit unless it is provisioned (and `evenIfProvisioned` is false) or another batch holds
    /// a claim on it that has not run out; in one transaction, so it answers the "already done?" question
    /// too.
    func claim(_ claim: UnitClaim, evenIfProvisioned: Bool) async throws -> UnitClaimOutcome

    /// Extends the claim to `lifetime` from now; false when it is no longer the holder's (it ran out and
    /// another station took it).
    func renew(_ claim: UnitClaim) async throws -> Bool

    /// Drops the claim without a record, when the unit goes back untouched.
    func release(_ claim: UnitClaim) async throws
}

extension ProvisioningRecordStore {
    /// Stores one attempt that holds no claim (a single-unit command, or a unit never attempted).
    public func append(_ record: ProvisioningRecord) async throws {
        try await append(record, settling: nil)
    }
}
