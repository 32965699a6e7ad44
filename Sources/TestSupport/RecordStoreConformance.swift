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
    case aClaimKeepsOtherHoldersOut
    case aClaimRunsOutUnlessRenewed
    case aSuccessSettlesTheClaim
    case aFailureOrReleaseEndsTheClaim
    case claimsTakeAnyKey

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
        case .aClaimKeepsOtherHoldersOut:
            try await claimKeepsOtherHoldersOut(store)
        case .aClaimRunsOutUnlessRenewed:
            try await claimRunsOutUnlessRenewed(store)
        case .aSuccessSettlesTheClaim:
            try await successSettlesTheClaim(store)
        case .aFailureOrReleaseEndsTheClaim:
            try await failureOrReleaseEndsTheClaim(store)
        case .claimsTakeAnyKey:
            try await claimsTakeAnyKey(store)
        }
    }

    /// A claim held by one batch for `key` on station `station`.
    public static func claim(
        _ key: String, by holder: String, station: String = "line-1", lifetime: Duration = .seconds(60)
    ) -> UnitClaim {
        UnitClaim(deviceKey: key, holder: holder, station: station, lane: "hci0", lifetime: lifetime)
    }

    private func claimKeepsOtherHoldersOut(_ store: any ProvisioningRecordStore) async throws {
        let mine = Self.claim("lamp", by: "batch-a")
        #expect(try await store.claim(mine, evenIfProvisioned: false) == .claimed)
        // The holder's own retry takes it again; another batch, on any station, finds it held.
        #expect(try await store.claim(mine, evenIfProvisioned: false) == .claimed)
        let theirs = Self.claim("lamp", by: "batch-b", station: "line-2")
        for force in [false, true] {
            guard case .heldElsewhere(let held) = try await store.claim(theirs, evenIfProvisioned: force) else {
                Issue.record("a live claim let another batch in")
                return
            }
            #expect(held.station == "line-1" && held.lane == "hci0")
            #expect(held.expiresIn > .zero && held.expiresIn <= .seconds(60))
        }
        #expect(try await store.claim(Self.claim("other", by: "batch-b"), evenIfProvisioned: false) == .claimed)
    }

    private func claimRunsOutUnlessRenewed(_ store: any ProvisioningRecordStore) async throws {
        let brief = Self.claim("lamp", by: "batch-a", lifetime: .milliseconds(1))
        let renewed = Self.claim("bulb", by: "batch-a", lifetime: .milliseconds(1))
        #expect(try await store.claim(brief, evenIfProvisioned: false) == .claimed)
        #expect(try await store.claim(renewed, evenIfProvisioned: false) == .claimed)
        #expect(try await store.renew(Self.claim("bulb", by: "batch-a")))
        try await Task.sleep(for: .milliseconds(20))
        // A dead station's claim ran out: another batch takes the unit, and the first has lost it.
        #expect(try await store.claim(Self.claim("lamp", by: "batch-b"), evenIfProvisioned: false) == .claimed)
        #expect(try await store.renew(brief) == false)
        guard case .heldElsewhere = try await store.claim(Self.claim("bulb", by: "batch-b"), evenIfProvisioned: false)
        else {
            Issue.record("a renewed claim ran out at its first lifetime")
            return
        }
    }

    private func successSettlesTheClaim(_ store: any ProvisioningRecordStore) async throws {
        let mine = Self.claim("lamp", by: "batch-a")
        #expect(try await store.claim(mine, evenIfProvisioned: false) == .claimed)
        try await store.append(Self.record("lamp"), settling: mine)
        let theirs = Self.claim("lamp", by: "batch-b")
        #expect(try await store.claim(theirs, evenIfProvisioned: false) == .provisioned)
        #expect(try await store.renew(mine) == false)
        // `--force` takes a provisioned unit at once: the settled claim no longer holds it.
        #expect(try await store.claim(theirs, evenIfProvisioned: true) == .claimed)
        // A unit whose success was recorded before claims existed counts as provisioned too.
        try await store.append(Self.record("old"))
        #expect(try await store.claim(Self.claim("old", by: "batch-b"), evenIfProvisioned: false) == .provisioned)
    }

    private func failureOrReleaseEndsTheClaim(_ store: any ProvisioningRecordStore) async throws {
        let failed = Self.claim("lamp", by: "batch-a")
        let handedBack = Self.claim("bulb", by: "batch-a")
        #expect(try await store.claim(failed, evenIfProvisioned: false) == .claimed)
        #expect(try await store.claim(handedBack, evenIfProvisioned: false) == .claimed)
        try await store.append(Self.record("lamp", code: "ble.link-lost"), settling: failed)
        try await store.release(handedBack)
        #expect(try await store.claim(Self.claim("lamp", by: "batch-b"), evenIfProvisioned: false) == .claimed)
        #expect(try await store.claim(Self.claim("bulb", by: "batch-b"), evenIfProvisioned: false) == .claimed)
        // Settling or releasing a claim another batch holds changes nothing.
        try await store.append(Self.record("lamp", code: "ble.link-lost"), settling: failed)
        try await store.release(handedBack)
        guard case .heldElsewhere = try await store.claim(failed, evenIfProvisioned: false) else {
            Issue.record("a stale holder's record ended another batch's claim")
            return
        }
        #expect(try await store.records(matching: RecordQuery()).count == 2)
    }

    /// Keys and names as hostile scanners send them are claimed, held and settled as they are (but for
    /// NUL, which PostgreSQL text cannot hold and batch input lines never carry).
    private func claimsTakeAnyKey(_ store: any ProvisioningRecordStore) async throws {
        var random = SplitMix64(seed: 0xC1A1_0031)
        func hostile() -> String { HostileText.next(&random).replacing("\u{0}", with: "") }
        var keys: Set<String> = []
        for _ in 0..<25 {
            let key = hostile()
            guard keys.insert(key).inserted else { continue }
            let mine = UnitClaim(
                deviceKey: key, holder: hostile(), station: hostile(), lane: hostile(), lifetime: .seconds(60))
            #expect(try await store.claim(mine, evenIfProvisioned: false) == .claimed)
            let theirs = Self.claim(key, by: "batch-z")
            guard case .heldElsewhere(let held) = try await store.claim(theirs, evenIfProvisioned: false) else {
                Issue.record("a claim on a hostile key let another batch in")
                return
            }
            #expect(held.station == mine.station && held.lane == mine.lane)
            try await store.append(Self.record(key), settling: mine)
            #expect(try await store.claim(theirs, evenIfProvisioned: false) == .provisioned)
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
        firmware: FirmwareVersions(bluFi: nil, protocomm: "v1.1", device: "2.0.3-β"), provisioningProtocol: "protocomm",
        securedWith: ProvisioningSecurity(.protocomm2, linkEncrypted: true))

    /// A minimal record: every optional field nil, no steps.
    public static func record(
        _ deviceKey: String, station: String = "line-1", code: String = "ok", startedAt: Date = start
    ) -> ProvisioningRecord {
        ProvisioningRecord(
            batchID: "b1", station: station, adapter: "hci0", deviceKey: deviceKey, path: .ble, attempt: 1,
            isFinal: true, code: code, startedAt: startedAt, finishedAt: startedAt.addingTimeInterval(0.5))
    }
}
