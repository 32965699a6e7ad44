/// A connected GATT peer seen as one write characteristic and one notify characteristic.
///
/// BluFi writes frames to one characteristic and hears answers as notifications on another; the link hides
/// which Bluetooth stack carries them. Implementations serialize writes and stop notifications and
/// disconnect when their scope ends.
public protocol GATTLink: Sendable {
    /// The negotiated ATT MTU in bytes, or 23 (the ATT default) when the stack does not report it.
    var mtu: Int { get }

    /// Notification payloads from the notify characteristic, in arrival order.
    ///
    /// The stream finishes with an error when the link is lost and finishes normally when the link closes.
    /// It is meant for one consumer.
    var notifications: AsyncThrowingStream<[UInt8], any Error> { get }

    /// Writes one value to the write characteristic and returns when the peer acknowledged it.
    func write(_ value: [UInt8]) async throws
}

extension GATTLink {
    /// The largest value one ATT write carries: the MTU less the 3-byte ATT header.
    public var maximumWriteLength: Int { mtu - 3 }
}
