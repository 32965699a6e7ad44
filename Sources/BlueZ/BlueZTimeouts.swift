/// Deadlines for each BLE step; every wait in the BlueZ client has one.
public struct BlueZTimeouts: Sendable, Hashable {
    /// Ordinary method calls (filters, discovery, notify, disconnect).
    public var call: Duration
    /// One connect attempt: `Connect` plus `ServicesResolved`.
    public var connectAttempt: Duration
    /// One GATT read for a caller that has no step limit of its own, such as reading a GATT database's
    /// descriptions to tell which protocol a device speaks (flows give their own limits).
    public var write: Duration
    /// Waiting for `Connected=false` after `Disconnect`.
    public var disconnect: Duration
    /// Finding a device again after `RemoveDevice`.
    public var rediscovery: Duration
    /// `Pair`, which waits for the device's side of the pairing.
    public var pairing: Duration = .seconds(30)
    /// The bus handshake (authentication and `Hello`) when the client connects.
    public var busHandshake: Duration = .seconds(10)

    /// The defaults: 10 s calls, 20 s per connect attempt, 5 s writes, 10 s disconnect, 10 s rediscovery.
    public init(
        call: Duration = .seconds(10), connectAttempt: Duration = .seconds(20), write: Duration = .seconds(5),
        disconnect: Duration = .seconds(10), rediscovery: Duration = .seconds(10)
    ) {
        self.call = call
        self.connectAttempt = connectAttempt
        self.write = write
        self.disconnect = disconnect
        self.rediscovery = rediscovery
    }
}
