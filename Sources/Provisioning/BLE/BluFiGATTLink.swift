import BluFi
public import Transports

/// BluFi's two characteristics on a connected peer (``BluFiGATTProfile``): notifications on FF02 turned
/// on before the first write, because NimBLE builds drop every frame to an unsubscribed client, and
/// frames written to FF01 with response, one per write.
public struct BluFiGATTLink: BluFiLink {
    public let mtu: Int
    public let notifications: AsyncThrowingStream<[UInt8], any Error>
    private let connection: any GATTConnection
    private let writeCharacteristic: GATTCharacteristic

    private init(
        connection: any GATTConnection, writeCharacteristic: GATTCharacteristic,
        notifications: AsyncThrowingStream<[UInt8], any Error>
    ) {
        self.connection = connection
        self.writeCharacteristic = writeCharacteristic
        self.notifications = notifications
        mtu = connection.mtu
    }

    /// Finds the BluFi service on `connection` and subscribes to its notify characteristic by `deadline`.
    ///
    /// Throws ``ProvisioningError`` `ble.services-missing` when the peer lacks either characteristic,
    /// `DeadlineExceeded` when subscribing outlasts `deadline`, and what the connection throws when
    /// subscribing fails.
    public static func open(on connection: any GATTConnection, until deadline: ContinuousClock.Instant)
        async throws -> BluFiGATTLink
    {
        guard let service = connection.service(BluFiGATTProfile.serviceUUID),
            let write = service.characteristic(BluFiGATTProfile.writeCharacteristicUUID),
            let notify = service.characteristic(BluFiGATTProfile.notifyCharacteristicUUID)
        else {
            throw ProvisioningError(
                .bleServicesMissing, "The device does not offer the BluFi GATT service.",
                hint: "Check that this is a BluFi device in provisioning mode; "
                    + "`bluetoothctl remove ADDRESS` clears a stale cache.",
                detail: "service \(BluFiGATTProfile.serviceUUID) lacks FF01 or FF02")
        }
        let notifications = try await connection.subscribe(to: notify, until: deadline)
        return BluFiGATTLink(connection: connection, writeCharacteristic: write, notifications: notifications)
    }

    public func write(_ value: [UInt8], until deadline: ContinuousClock.Instant) async throws {
        try await connection.write(value, to: writeCharacteristic, type: .withResponse, until: deadline)
    }
}
