/// Records in the order they were stored, each with the store's own ascending number, so a live view reads
/// only what is new since its last read (one indexed range on the primary key, whatever the table's size).
public protocol RecordFeed: Sendable {
    /// Up to `limit` records numbered above `number`, in the order they were stored, with their numbers.
    func records(after number: Int64, limit: Int) async throws -> [NumberedRecord]
}

/// A record and its number in the store it came from.
public struct NumberedRecord: Sendable, Equatable {
    public var number: Int64
    public var record: ProvisioningRecord

    public init(number: Int64, record: ProvisioningRecord) {
        self.number = number
        self.record = record
    }
}
