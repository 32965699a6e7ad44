/// A connected GATT peer: its discovered services, reads, writes and notifications on any characteristic.
///
/// A connection exists only inside its central's ``GATTCentral/withConnection(to:requiring:_:)`` scope,
/// which disconnects on every exit path; the stack hides which Bluetooth stack carries it. Writes are
/// serialized. Operations after the link dropped throw the stack's link-lost error.
public protocol GATTConnection: Sendable {
    /// The negotiated ATT MTU in bytes, or 23 (the ATT default) when the stack does not report it.
    var mtu: Int { get }

    /// The peer's primary services as discovered when the connection came up.
    var services: [GATTService] { get }

    /// Reads a characteristic's whole value (long values are read in parts by the stack).
    func read(_ characteristic: GATTCharacteristic) async throws -> [UInt8]

    /// Reads a descriptor's whole value.
    func read(_ descriptor: GATTDescriptor) async throws -> [UInt8]

    /// Writes `value` to a characteristic and returns when the stack (with response: the peer) took it.
    func write(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws

    /// Turns notifications (or indications) on and returns their payloads in arrival order.
    ///
    /// The stream finishes with an error when the link is lost and finishes normally when the scope
    /// ends. It is meant for one consumer; subscribing again to the same characteristic ends the
    /// earlier stream.
    func subscribe(to characteristic: GATTCharacteristic) async throws -> AsyncThrowingStream<[UInt8], any Error>

    /// ``read(_:)-(GATTCharacteristic)`` bounded by the caller's deadline instead of the stack's own;
    /// throws ``DeadlineExceeded`` when it passes first.
    func read(_ characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant) async throws -> [UInt8]

    /// ``write(_:to:type:)`` bounded by the caller's deadline instead of the stack's own; throws
    /// ``DeadlineExceeded`` when it passes first.
    func write(
        _ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType,
        until deadline: ContinuousClock.Instant
    ) async throws

    /// ``subscribe(to:)`` bounded by the caller's deadline instead of the stack's own; throws
    /// ``DeadlineExceeded`` when it passes first.
    func subscribe(to characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant) async throws
        -> AsyncThrowingStream<[UInt8], any Error>
}

/// Stacks without deadlines of their own race the operation against the caller's.
extension GATTConnection {
    public func read(_ characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant) async throws
        -> [UInt8]
    {
        try await withDeadline(deadline, "GATT read") { try await self.read(characteristic) }
    }

    public func write(
        _ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType,
        until deadline: ContinuousClock.Instant
    ) async throws {
        try await withDeadline(deadline, "GATT write") { try await self.write(value, to: characteristic, type: type) }
    }

    public func subscribe(to characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant)
        async throws -> AsyncThrowingStream<[UInt8], any Error>
    {
        try await withDeadline(deadline, "GATT subscribe") { try await self.subscribe(to: characteristic) }
    }
}

extension GATTConnection {
    /// The largest value one ATT write carries: the MTU less the 3-byte ATT header.
    public var maximumWriteLength: Int { mtu - 3 }

    /// The first service with `uuid`, if the peer has one.
    public func service(_ uuid: String) -> GATTService? {
        let uuid = BluetoothUUID.normalized(uuid)
        return services.first { $0.uuid == uuid }
    }
}
