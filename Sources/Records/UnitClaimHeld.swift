/// Who holds a unit another station found claimed, and for how long at most unless renewed.
public struct UnitClaimHeld: Sendable, Equatable {
    /// The batch run holding it (``UnitClaim/holder``).
    public var holder: String
    public var station: String
    public var lane: String
    public var expiresIn: Duration

    public init(holder: String, station: String, lane: String, expiresIn: Duration) {
        self.holder = holder
        self.station = station
        self.lane = lane
        self.expiresIn = expiresIn
    }
}
