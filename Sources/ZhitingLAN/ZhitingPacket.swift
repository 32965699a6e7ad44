// Wire rules (the offsets of zhiting-tech/smartassistant's `modules/sadiscover/packet.go`): a 32-byte
// big-endian header — magic 21 31, total length, reserved/type, 6-byte device ID, serial, 16-byte "checksum"
// field — then the payload. Only the magic and the length are validated on receipt; nobody in the ecosystem
// verifies the checksum field or the serial, so neither does this codec.

/// One Zhiting LAN datagram: header fields plus the (usually encrypted) payload.
public struct ZhitingPacket: Sendable, Equatable {
    /// `21 31`, shared with miIO.
    public static let magic: UInt16 = 0x2131
    /// Size of the fixed header; also the size of hello and token-request packets.
    public static let headerSize = 32
    /// The largest datagram accepted.
    ///
    /// Real replies are a few hundred bytes; anything far larger
    /// is not this protocol and is refused before any decryption work.
    public static let maximumSize = 4096

    /// Reserved/type field: `ffff` hello, `fffe` token request, otherwise `0000` or `ffff`.
    public var reserved: UInt16
    public var deviceID: ZhitingDeviceID
    /// Apps send 0; the SA echoes it.
    public var serial: UInt32
    /// Bytes 16..31: a session key, an MD5 of the packet, or all ones (see ``ZhitingChecksumConvention``).
    public var checksumField: [UInt8]
    public var payload: [UInt8]

    /// A packet; `checksumField` must be 16 bytes (it is padded or cut to 16 otherwise).
    public init(
        reserved: UInt16,
        deviceID: ZhitingDeviceID,
        serial: UInt32 = 0,
        checksumField: [UInt8],
        payload: [UInt8] = []
    ) {
        self.reserved = reserved
        self.deviceID = deviceID
        self.serial = serial
        self.checksumField = Array((checksumField + [UInt8](repeating: 0, count: 16)).prefix(16))
        self.payload = payload
    }

    /// Parses a received datagram, refusing anything whose length disagrees with its header.
    public init(decoding datagram: [UInt8]) throws(ZhitingLANError) {
        guard datagram.count <= Self.maximumSize else { throw .oversizedPacket(datagram.count) }
        guard datagram.count >= Self.headerSize else {
            throw .truncatedPacket(declared: Self.headerSize, received: datagram.count)
        }
        let magic = UInt16(datagram[0]) << 8 | UInt16(datagram[1])
        guard magic == Self.magic else { throw .badMagic(magic) }
        let declared = Int(datagram[2]) << 8 | Int(datagram[3])
        guard declared >= Self.headerSize, declared <= datagram.count else {
            throw .truncatedPacket(declared: declared, received: datagram.count)
        }
        guard declared == datagram.count else { throw .lengthMismatch(declared: declared, received: datagram.count) }
        reserved = UInt16(datagram[4]) << 8 | UInt16(datagram[5])
        deviceID = ZhitingDeviceID(uncheckedBytes: Array(datagram[6..<12]))
        serial = datagram[12..<16].reduce(0) { $0 << 8 | UInt32($1) }
        checksumField = Array(datagram[16..<32])
        payload = Array(datagram[32...])
    }

    /// The datagram bytes.
    public func encoded() -> [UInt8] {
        let length = Self.headerSize + payload.count
        var bytes: [UInt8] = [0x21, 0x31, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
        bytes += [UInt8(reserved >> 8), UInt8(truncatingIfNeeded: reserved)]
        bytes += deviceID.bytes
        bytes += (0..<4).map { UInt8(truncatingIfNeeded: serial >> (24 - 8 * UInt32($0))) }
        bytes += checksumField
        bytes += payload
        return bytes
    }
}

extension ZhitingPacket {
    /// Reserved value of the hello and of hello replies.
    public static let helloReserved: UInt16 = 0xFFFF
    /// Reserved value that marks a token (key) request.
    public static let tokenRequestReserved: UInt16 = 0xFFFE
}
