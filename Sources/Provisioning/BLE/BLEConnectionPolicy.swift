/// What a BLE provisioning flow needs of its connection: the services that must be in the device's GATT
/// database, and what to do when the device refuses access until the link is paired. The flow states it;
/// the Bluetooth adapter's wiring carries it out.
public struct BLEConnectionPolicy: Sendable, Hashable {
    /// What the connection does when the device refuses GATT access until the link is paired.
    public enum Pairing: Sendable, Hashable {
        /// Report the refusal.
        case never
        /// Pair "Just Works", retry once, and remove a bond made for the connection when it ends unless
        /// `keepsBond`. `whenUnanswered` also pairs when an access stays unanswered: only for firmware that
        /// may force encryption, since a slow device, or one closing the link as asked, must not be paired.
        case justWorks(keepsBond: Bool, whenUnanswered: Bool)
    }

    /// Normalized UUIDs of the services the flow runs on; empty when the flow finds its service itself.
    public var requiredServices: [String]
    public var pairing: Pairing

    public init(requiredServices: [String], pairing: Pairing = .justWorks(keepsBond: false, whenUnanswered: false)) {
        self.requiredServices = requiredServices
        self.pairing = pairing
    }
}
