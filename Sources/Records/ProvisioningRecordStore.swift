/// Where attempts are kept: an embedded SQLite file by default, a shared PostgreSQL database for a line.
///
/// `append` returns only once the record is durable, so a power cut after it loses nothing that was
/// reported as recorded. Errors are ``RecordStoreError``.
public protocol ProvisioningRecordStore: Sendable {
    /// Stores one attempt durably.
    func append(_ record: ProvisioningRecord) async throws

    /// The device keys, among `keys`, that already have a successful attempt (on any station).
    func provisionedDeviceKeys(among keys: Set<String>) async throws -> Set<String>

    /// The records the query selects, oldest first.
    func records(matching query: RecordQuery) async throws -> [ProvisioningRecord]
}
