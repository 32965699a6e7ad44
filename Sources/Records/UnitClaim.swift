public import FoundationEssentials

/// A batch's hold on one unit while a lane works on it, kept in the shared records so that no other
/// station provisions the unit at the same time.
///
/// A claim lasts `lifetime` from when it was taken or last renewed; a station that dies leaves its
/// claims to run out, after which any station may take the unit.
public struct UnitClaim: Sendable, Equatable {
    /// The unit, as the batch input named it (the records' `device_key`).
    public var deviceKey: String
    /// The batch run holding it: a station's next run does not mistake its dead run's claims for its own.
    public var holder: String
    /// The station and lane shown to the stations that find the unit held.
    public var station: String
    public var lane: String
    /// How long the claim lasts unless renewed.
    public var lifetime: Duration
    /// A holder known to be gone (a batch process on this host that died), whose claim this one may take
    /// before it runs out.
    public var replacing: String?

    public init(
        deviceKey: String, holder: String, station: String, lane: String, lifetime: Duration, replacing: String? = nil
    ) {
        self.deviceKey = deviceKey
        self.holder = holder
        self.station = station
        self.lane = lane
        self.lifetime = lifetime
        self.replacing = replacing
    }

    /// The lifetime in whole milliseconds, as the stores keep expiry times (at least 1).
    public var lifetimeMilliseconds: Int64 {
        let (seconds, attoseconds) = lifetime.components
        return max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    /// What taking this claim finds, given the unit's current claim, whether its attempts show it
    /// provisioned, and the store's clock: the rule every store applies in one transaction.
    public func outcome(
        over current: UnitClaimRow?, provisionedInAttempts: Bool, evenIfProvisioned: Bool, now: Date
    ) -> UnitClaimOutcome {
        if !evenIfProvisioned, provisionedInAttempts || current?.provisioned == true { return .provisioned }
        if let current, current.holder != holder, current.holder != replacing, current.expiresAt > now {
            return .heldElsewhere(
                UnitClaimHeld(
                    holder: current.holder, station: current.station, lane: current.lane,
                    expiresIn: .milliseconds(Int64((current.expiresAt.timeIntervalSince(now) * 1000).rounded(.up)))))
        }
        return .claimed
    }
}
