import PostgresRecordStore
import Provisioning
import Records
import SQLiteRecordStore

/// Opens the store a location names: the one place the record adapters meet the commands.
///
/// Failures become `records.unavailable` or `records.incompatible-schema`, with the location shown
/// without its password.
/// `readOnly` (for `report`) opens an SQLite file without creating or writing it, and a PostgreSQL
/// database in a read-only session without creating its tables.
func openRecordStore(
    _ location: RecordStoreLocation, readOnly: Bool = false
) async throws(ProvisioningError) -> any ProvisioningRecordStore {
    do {
        switch location {
        case .sqlite(let path) where readOnly: return try await SQLiteRecordStore(readingPath: path)
        case .sqlite(let path): return try await SQLiteRecordStore(path: path)
        case .postgres(let url) where readOnly: return try await PostgresRecordStore(readingURL: url)
        case .postgres(let url): return try await PostgresRecordStore(url: url)
        }
    } catch {
        throw .records(error, at: location.place, while: .opening)
    }
}
