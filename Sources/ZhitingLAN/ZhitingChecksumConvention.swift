import CryptoPrimitives

/// What goes into bytes 16..31 of a packet that is neither a hello nor a token request.
///
/// Both shipped apps put the ASCII session key there; the SA hub puts an MD5 of the whole datagram,
/// computed while the field is zero (`Encode` in zhiting-tech/smartassistant's
/// `modules/sadiscover/packet.go`). Nobody verifies the field, so a receiver accepts either and only
/// ``recognize(in:sessionKey:)`` tells them apart, for diagnostics.
public enum ZhitingChecksumConvention: Sendable, Equatable, CaseIterable {
    /// The 16 ASCII key characters, as iOS and Android send every request.
    case sessionKey
    /// MD5 over the datagram with the field zeroed, as the SA hub signs its replies.
    case packetDigest

    /// `packet` with its checksum field filled in this convention.
    public func apply(to packet: ZhitingPacket, sessionKey: ZhitingSessionKey) -> ZhitingPacket {
        switch self {
        case .sessionKey:
            var sealed = packet
            sealed.checksumField = sessionKey.bytes
            return sealed
        case .packetDigest:
            return packet.withPacketDigest()
        }
    }

    /// The convention `packet`'s field follows, or nil when it follows neither (tolerated all the same).
    public static func recognize(in packet: ZhitingPacket, sessionKey: ZhitingSessionKey?) -> ZhitingChecksumConvention?
    {
        if let sessionKey, packet.checksumField == sessionKey.bytes { return .sessionKey }
        if packet.withPacketDigest() == packet { return .packetDigest }
        return nil
    }
}

extension ZhitingPacket {
    /// This packet with bytes 16..31 set to the MD5 of the datagram computed while they are zero.
    public func withPacketDigest() -> ZhitingPacket {
        var sealed = self
        sealed.checksumField = [UInt8](repeating: 0, count: 16)
        sealed.checksumField = Digest.md5(sealed.encoded())
        return sealed
    }
}
