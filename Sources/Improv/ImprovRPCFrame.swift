/// One RPC frame, command or result: command byte, data length, data, checksum.
///
/// The checksum is the sum of every preceding byte, keeping only the low byte. The length byte caps
/// the data at 255 bytes, so a frame is at most 258 bytes.
public struct ImprovRPCFrame: Sendable, Hashable {
    /// Command identifier; a result carries the identifier of the command it answers. Kept raw so a
    /// device can answer "unknown command" and a client can skip results it did not ask for.
    public let command: UInt8
    public let data: [UInt8]

    public static let maximumDataLength = 255
    public static let maximumLength = maximumDataLength + 3

    public init(command: UInt8, data: [UInt8]) throws(ImprovError) {
        guard data.count <= Self.maximumDataLength else { throw .dataTooLong(data.count) }
        self.command = command
        self.data = data
    }

    /// Command, length, data and checksum, ready to be written (split with ``chunks(of:)``).
    public var encoded: [UInt8] {
        let body = [command, UInt8(data.count)] + data
        return body + [Self.checksum(of: body)]
    }

    /// The low byte of the sum of `bytes`.
    public static func checksum(of bytes: some Sequence<UInt8>) -> UInt8 {
        bytes.reduce(0, &+)
    }

    /// Decodes one complete frame; the length must match exactly and the checksum must hold.
    public static func decode(_ bytes: [UInt8]) throws(ImprovError) -> ImprovRPCFrame {
        guard bytes.count >= 3 else { throw .truncatedFrame(declared: nil, received: bytes.count) }
        let declared = Int(bytes[1])
        guard bytes.count == declared + 3 else {
            if bytes.count < declared + 3 { throw .truncatedFrame(declared: declared, received: bytes.count) }
            throw .frameLengthMismatch(declared: declared, received: bytes.count)
        }
        let expected = checksum(of: bytes.dropLast())
        guard bytes[bytes.count - 1] == expected else {
            throw .badChecksum(expected: expected, received: bytes[bytes.count - 1])
        }
        return try ImprovRPCFrame(command: bytes[0], data: Array(bytes[2..<(bytes.count - 1)]))
    }

    /// `frame` in consecutive writes of at most ``ImprovGATTProfile/maximumWriteLength`` bytes.
    public static func chunks(of frame: [UInt8]) -> [[UInt8]] {
        stride(from: 0, to: frame.count, by: ImprovGATTProfile.maximumWriteLength).map {
            Array(frame[$0..<min($0 + ImprovGATTProfile.maximumWriteLength, frame.count)])
        }
    }
}
