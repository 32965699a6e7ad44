public import FoundationEssentials

/// A unit's row in the claims table.
public struct UnitClaimRow: Sendable, Equatable {
    public var holder: String
    public var station: String
    public var lane: String
    public var expiresAt: Date
    /// The holder provisioned the unit: the claim stays as the unit's settlement.
    public var provisioned: Bool

    public init(holder: String, station: String, lane: String, expiresAt: Date, provisioned: Bool) {
        self.holder = holder
        self.station = station
        self.lane = lane
        self.expiresAt = expiresAt
        self.provisioned = provisioned
    }
}
