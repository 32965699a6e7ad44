public import Records

/// A record store in memory, for batch tests that check every attempt without a database.
public actor InMemoryRecordStore: ProvisioningRecordStore {
    public private(set) var all: [ProvisioningRecord] = []

    public init(_ records: [ProvisioningRecord] = []) {
        all = records
    }

    public func append(_ record: ProvisioningRecord) {
        all.append(record)
    }

    public func provisionedDeviceKeys(among keys: Set<String>) -> Set<String> {
        Set(all.filter { $0.succeeded && keys.contains($0.deviceKey) }.map(\.deviceKey))
    }

    public func records(matching query: RecordQuery) -> [ProvisioningRecord] {
        let selected = all.filter { record in
            (query.since.map { record.startedAt >= $0 } ?? true) && (query.station.map { record.station == $0 } ?? true)
        }
        return selected.sorted { $0.startedAt < $1.startedAt }
    }
}
