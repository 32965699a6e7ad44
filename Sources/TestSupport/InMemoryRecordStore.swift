public import FoundationEssentials
public import Records

/// A record store in memory, for batch tests that check every attempt without a database.
public actor InMemoryRecordStore: ProvisioningRecordStore {
    public private(set) var all: [ProvisioningRecord] = []
    /// The claims table: one row per claimed unit.
    public private(set) var claims: [String: UnitClaimRow] = [:]
    /// Every claim, renewal and append in the order they came: `claim KEY`, `renew KEY`, `append KEY`.
    public private(set) var operations: [String] = []
    private let clock: @Sendable () -> Date

    public init(_ records: [ProvisioningRecord] = [], clock: @escaping @Sendable () -> Date = { Date() }) {
        all = records
        self.clock = clock
    }

    public func append(_ record: ProvisioningRecord, settling claim: UnitClaim? = nil) {
        operations.append("append \(record.deviceKey)")
        all.append(record)
        guard let claim, claims[claim.deviceKey]?.holder == claim.holder else { return }
        if record.succeeded {
            claims[claim.deviceKey]?.provisioned = true
            claims[claim.deviceKey]?.expiresAt = clock()
        } else if claims[claim.deviceKey]?.provisioned == false {
            claims[claim.deviceKey] = nil
        }
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

    public func claim(_ claim: UnitClaim, evenIfProvisioned: Bool) -> UnitClaimOutcome {
        operations.append("claim \(claim.deviceKey)")
        let now = clock()
        let outcome = claim.outcome(
            over: claims[claim.deviceKey],
            provisionedInAttempts: !provisionedDeviceKeys(among: [claim.deviceKey]).isEmpty,
            evenIfProvisioned: evenIfProvisioned, now: now)
        if outcome == .claimed {
            claims[claim.deviceKey] = UnitClaimRow(
                holder: claim.holder, station: claim.station, lane: claim.lane, expiresAt: expiry(claim, from: now),
                provisioned: false)
        }
        return outcome
    }

    public func renew(_ claim: UnitClaim) -> Bool {
        operations.append("renew \(claim.deviceKey)")
        guard let row = claims[claim.deviceKey], row.holder == claim.holder, !row.provisioned else { return false }
        claims[claim.deviceKey]?.expiresAt = expiry(claim, from: clock())
        return true
    }

    public func release(_ claim: UnitClaim) {
        guard let row = claims[claim.deviceKey], row.holder == claim.holder, !row.provisioned else { return }
        claims[claim.deviceKey] = nil
    }

    private func expiry(_ claim: UnitClaim, from now: Date) -> Date {
        now.addingTimeInterval(Double(claim.lifetimeMilliseconds) / 1000)
    }
}
