import Transports

/// A connected BluFi peer seen as BluFi uses GATT: one characteristic written with response, one that
/// notifies the answers.
///
/// ``BluFiGATTLink`` is this over any `GATTConnection`; tests may play a device behind it directly.
public protocol BluFiLink: Sendable {
    /// The negotiated ATT MTU in bytes.
    var mtu: Int { get }

    /// Notification payloads from the notify characteristic, in arrival order.
    ///
    /// The stream finishes with an error when the link is lost and finishes normally when the link closes.
    /// It is meant for one consumer.
    var notifications: AsyncThrowingStream<[UInt8], any Error> { get }

    /// Writes one frame to the write characteristic and returns when the peer acknowledged it, by the
    /// flow's `deadline`; throws `DeadlineExceeded` when it passes first.
    func write(_ value: [UInt8], until deadline: ContinuousClock.Instant) async throws
}

extension BluFiLink {
    /// The largest value one ATT write carries: the MTU less the 3-byte ATT header.
    public var maximumWriteLength: Int { mtu - 3 }
}
