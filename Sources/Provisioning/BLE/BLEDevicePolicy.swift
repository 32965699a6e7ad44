/// How `ble` is to choose among the devices its scan hears: what the command line said about it.
public enum BLEDevicePolicy: Sendable, Hashable {
    /// No choice was given: one device goes ahead, several are asked about (on a terminal) or refused.
    case unchosen
    /// `--device`: the scan hears only that address.
    case named
    /// `--pick strongest`: the strongest signal once the scan settled.
    case strongest
    /// `--pick first`: the first device heard, without waiting for others.
    case first

    /// Whether the first device heard decides: then the scan does not listen for others.
    public var decidesOnFirstSighting: Bool { self == .named || self == .first }
}
