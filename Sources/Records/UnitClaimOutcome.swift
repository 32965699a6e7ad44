/// What a station learns when it claims a unit.
public enum UnitClaimOutcome: Sendable, Equatable {
    /// The unit is this station's until the claim is settled or runs out.
    case claimed
    /// The unit is provisioned (on any station); nothing is claimed.
    case provisioned
    /// Another station holds the unit now; nothing is claimed.
    case heldElsewhere(UnitClaimHeld)
}
