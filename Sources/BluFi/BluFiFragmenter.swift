/// Splits a message into the data fields of consecutive frames, sized for the link's ATT MTU.
///
/// Every piece but the last starts with the 2-byte little-endian count of message bytes remaining from
/// that piece on (prefixes not counted) and travels with ``BluFiFrameControl/fragment``. The phone and
/// the device size their pieces differently, and both rules are reproduced so frames match the
/// official implementations byte for byte:
/// - phone (Android library): frame limit `L = min(MTU − 3, 255)`, 20 when the MTU is unknown; each
///   fragment carries `L − 6` message bytes (`L − 8` with a checksum); a last piece may take up to two
///   more bytes because it has no prefix.
/// - device (ESP-IDF): `min(MTU, 255) − 11` message bytes per fragment, 12 before the MTU exchange.
public struct BluFiFragmenter: Sendable, Equatable {
    /// The largest message a fragment prefix can announce.
    public static let maximumMessageLength = Int(UInt16.max)

    /// Message bytes one fragment carries after its prefix.
    public let contentPerFragment: Int
    /// Extra bytes the final, prefix-less piece may carry.
    public let finalPieceAllowance: Int

    /// A custom rule; ``phone(attMTU:checksum:)`` and ``device(attMTU:)`` are the two in use.
    public init(contentPerFragment: Int, finalPieceAllowance: Int) {
        precondition(contentPerFragment > 0 && finalPieceAllowance >= 0, "fragments must carry message bytes")
        self.contentPerFragment = contentPerFragment
        self.finalPieceAllowance = finalPieceAllowance
    }

    /// The phone's rule for frames it writes, with or without a checksum.
    public static func phone(attMTU: Int?, checksum: Bool) -> BluFiFragmenter {
        let frameLimit = attMTU.map { min(max($0 - 3, 20), BluFiFrame.maximumDataLength) } ?? 20
        let overhead = BluFiFrame.headerSize + 2 + (checksum ? BluFiFrame.checksumSize : 0)
        return BluFiFragmenter(contentPerFragment: frameLimit - overhead, finalPieceAllowance: 2)
    }

    /// The device's rule for frames it notifies (ESP-IDF `frag_size`).
    public static func device(attMTU: Int?) -> BluFiFragmenter {
        let reserved = 11
        let mtu = attMTU.map { min(max($0, 23), BluFiFrame.maximumDataLength) } ?? 23
        return BluFiFragmenter(contentPerFragment: mtu - reserved, finalPieceAllowance: 0)
    }

    /// The data fields, in order; every one but the last needs ``BluFiFrameControl/fragment``.
    ///
    /// An empty message is one empty piece.
    public func split(_ message: [UInt8]) -> [[UInt8]] {
        precondition(message.count <= Self.maximumMessageLength, "caller checks the message length")
        var pieces: [[UInt8]] = []
        var remaining = message[...]
        while remaining.count > contentPerFragment + finalPieceAllowance {
            let count = UInt16(remaining.count)
            pieces.append([UInt8(truncatingIfNeeded: count), UInt8(count >> 8)] + remaining.prefix(contentPerFragment))
            remaining = remaining.dropFirst(contentPerFragment)
        }
        pieces.append(Array(remaining))
        return pieces
    }
}
