public import Foundation
public import Records
import Testing

/// The behaviour every ``ProvisioningRecordStore`` shares, written once and run against each store
/// (in memory, SQLite, PostgreSQL), the way a scenario runs in memory or live.
///
/// Each check gets a store that starts empty: `@Test(arguments: RecordStoreConformance.allCases)`.
public enum RecordStoreConformance: String, CaseIterable, Sendable {
    case roundTripsEveryField
    case returnsOldestFirst
    case provisionedKeysCountOnlySuccesses
    case queriesBySinceAndStation

    /// Runs the check on `store`, which must be empty.
    public func run(on store: any ProvisioningRecordStore) async throws {
        switch self {
        case .roundTripsEveryField:
            let full = Self.fullRecord
            let sparse = Self.record("bare", startedAt: full.startedAt.addingTimeInterval(1))
            try await store.append(full)
            try await store.append(sparse)
            #expect(try await store.records(matching: RecordQuery()) == [full, sparse])
        case .returnsOldestFirst:
            let times = [30.0, 10.0, 20.0].map { Self.start.addingTimeInterval($0) }
            for (index, time) in times.enumerated() {
                try await store.append(Self.record("k\(index)", startedAt: time))
            }
            let keys = try await store.records(matching: RecordQuery()).map(\.deviceKey)
            #expect(keys == ["k1", "k2", "k0"])
        case .provisionedKeysCountOnlySuccesses:
            try await store.append(Self.record("done", code: ProvisioningRecord.successCode))
            try await store.append(Self.record("failed", code: "ble.connect-aborted"))
            try await store.append(
                Self.record("done-elsewhere", station: "line-2", code: ProvisioningRecord.successCode))
            try await store.append(Self.record("retried", code: "ble.link-lost"))
            try await store.append(Self.record("retried", code: ProvisioningRecord.successCode))
            let keys = try await store.provisionedDeviceKeys(among: [
                "done", "failed", "retried", "never", "done-elsewhere",
            ])
            #expect(keys == ["done", "retried", "done-elsewhere"])
            #expect(try await store.provisionedDeviceKeys(among: []) == [])
        case .queriesBySinceAndStation:
            try await queriesBySinceAndStation(store)
        }
    }

    private func queriesBySinceAndStation(_ store: any ProvisioningRecordStore) async throws {
        let early = Self.record("early", station: "line-1", startedAt: Self.start)
        let boundary = Self.record("boundary", station: "line-2", startedAt: Self.start.addingTimeInterval(60))
        let late = Self.record("late", station: "line-1", startedAt: Self.start.addingTimeInterval(120))
        for record in [early, boundary, late] { try await store.append(record) }
        let since = Self.start.addingTimeInterval(60)
        #expect(try await store.records(matching: RecordQuery(since: since)) == [boundary, late])
        #expect(try await store.records(matching: RecordQuery(station: "line-1")) == [early, late])
        #expect(try await store.records(matching: RecordQuery(since: since, station: "line-1")) == [late])
        #expect(try await store.records(matching: RecordQuery(station: "line-9")) == [])
    }

    /// 2024-05-01T08:00:00Z, with a fraction every store keeps exactly.
    public static let start = Date(timeIntervalSince1970: 1_714_550_400.125)

    /// A record with every optional field set, and text that trips naive quoting and encodings.
    public static let fullRecord = ProvisioningRecord(
        batchID: "batch-2024-05-01", station: "línea-1 ☕", adapter: "hci1", deviceKey: "ZT-\"Lamp\", 工厂\n#7",
        address: "24:0A:C4:00:11:22", deviceID: "a1b2c3d4e5f6", path: .softAP, security: "sec2 patch 1", attempt: 3,
        isFinal: true, code: "protocomm.wrong-pop", message: "The device rejected the proof of possession; it's 🔒.",
        startedAt: start, finishedAt: start.addingTimeInterval(4.375),
        steps: [
            RecordedStep(name: "join-hotspot", milliseconds: 2100), RecordedStep(name: "session", milliseconds: 87),
        ],
        firmware: FirmwareVersions(bluFi: nil, protocomm: "v1.1", device: "2.0.3-β"), provisioningProtocol: "protocomm")

    /// A minimal record: every optional field nil, no steps.
    public static func record(
        _ deviceKey: String, station: String = "line-1", code: String = "ok", startedAt: Date = start
    ) -> ProvisioningRecord {
        ProvisioningRecord(
            batchID: "b1", station: station, adapter: "hci0", deviceKey: deviceKey, path: .ble, attempt: 1,
            isFinal: true, code: code, startedAt: startedAt, finishedAt: startedAt.addingTimeInterval(0.5))
    }
}
