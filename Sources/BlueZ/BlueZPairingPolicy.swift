/// What a connection scope does when the device refuses GATT access until the link is paired (firmware
/// built with forced BLE encryption or bonding, which answers ATT "insufficient authentication").
public enum BlueZPairingPolicy: Sendable, Hashable {
    /// Report the refusal.
    case never
    /// Pair "Just Works" through a NoInputNoOutput agent of our own, retry once, and remove a bond made
    /// during the scope when it ends unless `keepBond`.
    case justWorks(keepBond: Bool)
}
