import DBus
public import Transports

/// A connected device's profile characteristics as a `GATTLink`: writes go to the write characteristic with
/// `WriteValue(type=request)`, one at a time; notifications come from `StartNotify` + `PropertiesChanged`.
///
/// Valid only inside `BlueZClient.withConnectedDevice`; the notification stream fails with
/// `BlueZError.linkLost` when the device disconnects or disappears.
public struct BlueZGATTClient: GATTLink {
    /// The device as it was when the link came up.
    public let device: BlueZDevice
    /// The ATT MTU from the characteristic's `MTU` property, or 23 when BlueZ does not export it.
    public let mtu: Int
    /// Notification payloads from the notify characteristic.
    public let notifications: AsyncThrowingStream<[UInt8], any Error>
    let client: BlueZClient
    let writeCharacteristic: DBusObjectPath

    /// Writes `value` with response; throws `BlueZError` (e.g. `.notConnected`, `.timedOut`).
    public func write(_ value: [UInt8]) async throws {
        try await client.writeValue(value, to: writeCharacteristic)
    }
}
