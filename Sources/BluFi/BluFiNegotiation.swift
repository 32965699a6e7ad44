public import CryptoPrimitives

/// The NEG messages of a key negotiation, common to V1 and V2, as ESP-IDF's BluFi example parses them
/// (`examples/bluetooth/blufi/main/blufi_security.c`).
///
/// The phone sends two messages: `00 LL LL` announces the length of the second without its first
/// byte, then `01 ‖ len(p) ‖ p ‖ len(g) ‖ g ‖ len(pub) ‖ pub` with 16-bit big-endian lengths. The device
/// answers with one message holding only its public key, padded to the prime's width.
public enum BluFiNegotiation {
    /// First byte of the length announcement.
    public static let parameterLengthCode: UInt8 = 0x00
    /// First byte of the parameter message.
    public static let parameterDataCode: UInt8 = 0x01

    /// The parameter message for `publicKey` in `group`: p at full width, g minimal, the key padded.
    public static func parameterDataMessage(group: DHGroup, publicKey: [UInt8]) -> [UInt8] {
        let fields = [group.prime.bigEndianBytes(count: group.byteCount), group.generator.magnitude, publicKey]
        return [parameterDataCode] + fields.flatMap { bigEndianLength($0.count) + $0 }
    }

    /// The announcement that precedes `dataMessage`.
    public static func parameterLengthMessage(for dataMessage: [UInt8]) -> [UInt8] {
        [parameterLengthCode] + bigEndianLength(dataMessage.count - 1)
    }

    private static func bigEndianLength(_ count: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)]
    }
}
