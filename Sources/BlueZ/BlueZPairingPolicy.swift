/// What a connection scope does when the device refuses GATT access until the link is paired (firmware
/// built with forced BLE encryption or bonding, which answers ATT "insufficient authentication").
public enum BlueZPairingPolicy: Sendable, Hashable {
    /// Report the refusal.
    case never
    /// Pair "Just Works" through a NoInputNoOutput agent of our own, retry once, and remove a bond made
    /// during the scope when it ends unless `keepBond`.
    ///
    /// `whenUnanswered` also pairs when an access stays unanswered for a while: bluetoothd pairs by itself
    /// on a refused access and, with no default agent, that pairing fails and leaves the access hanging.
    /// Only then is an access failed with ATT 0x0E (the link dropped under it) taken for a refused pairing.
    /// Only protocols whose firmware may force encryption (ESP protocomm) want it; a slow BluFi device, or
    /// one closing the link as asked, must not be paired.
    case justWorks(keepBond: Bool, whenUnanswered: Bool = false)
}
