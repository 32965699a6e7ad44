/// A connected GATT peer: its discovered services, reads, writes and notifications on any characteristic.
///
/// A connection exists only inside the scope its Bluetooth stack's adapter opened for it, which disconnects on
/// every exit path; flows see only this port, not which stack carries it. Writes are
/// serialized. Operations after the link dropped throw the stack's link-lost error. Every operation takes
/// the caller's deadline, so a flow's step limit, not a stack's own, decides how long it may take.
public protocol GATTConnection: Sendable {
    /// The negotiated ATT MTU in bytes, or 23 (the ATT default) when the stack does not report it.
    var mtu: Int { get }

    /// The peer's primary services as discovered when the connection came up.
    var services: [GATTService] { get }

    /// Reads a characteristic's whole value (long values are read in parts by the stack) by the caller's
    /// deadline; throws ``DeadlineExceeded`` when it passes first.
    func read(_ characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant) async throws -> [UInt8]

    /// Reads a descriptor's whole value by the caller's deadline; throws ``DeadlineExceeded`` when it
    /// passes first.
    func read(_ descriptor: GATTDescriptor, until deadline: ContinuousClock.Instant) async throws -> [UInt8]

    /// Writes `value` to a characteristic and returns when the stack (with response: the peer) took it, by
    /// the caller's deadline; throws ``DeadlineExceeded`` when it passes first.
    func write(
        _ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType,
        until deadline: ContinuousClock.Instant
    ) async throws

    /// Turns notifications (or indications) on by the caller's deadline and returns their payloads in
    /// arrival order; throws ``DeadlineExceeded`` when the deadline passes before they are on.
    ///
    /// The stream finishes with an error when the link is lost and finishes normally when the scope
    /// ends. It is meant for one consumer; subscribing again to the same characteristic ends the
    /// earlier stream.
    func subscribe(to characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant) async throws
        -> AsyncThrowingStream<[UInt8], any Error>

    /// Whether the link is encrypted (the peer is paired), as the stack knows it now.
    var isLinkEncrypted: Bool { get async }
}

extension GATTConnection {
    /// A stack or test double that cannot tell reports a plain link.
    public var isLinkEncrypted: Bool { get async { false } }

    /// The largest value one ATT write carries: the MTU less the 3-byte ATT header.
    public var maximumWriteLength: Int { mtu - 3 }

    /// The first service with `uuid`, if the peer has one.
    public func service(_ uuid: String) -> GATTService? {
        let uuid = BluetoothUUID.normalized(uuid)
        return services.first { $0.uuid == uuid }
    }
}
