public import CryptoPrimitives

/// The 16-character key a client invents per device and sends in the checksum field of its token
/// request; the device wraps its token with it, and apps repeat it in every later request.
public struct ZhitingSessionKey: Sendable, Equatable {
    /// The 16 ASCII bytes, exactly as they go on the wire.
    public let bytes: [UInt8]

    /// The iOS app's alphabet, `[a-zA-Z0-9]`.
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)

    /// A key from its text; it must be 16 letters or digits.
    public init(_ text: String) throws(ZhitingLANError) {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes.allSatisfy(Self.alphabet.contains) else { throw .invalidSessionKey }
        self.bytes = bytes
    }

    /// A fresh key drawn uniformly from the alphabet.
    ///
    /// Bytes ≥ 248 are redrawn so that `byte % 62` has no bias; a scripted source holding the
    /// alphabet indices 0…61 therefore yields exactly the key it spells.
    public static func random(using source: inout some RandomSource) -> ZhitingSessionKey {
        let limit = UInt8(256 / alphabet.count * alphabet.count)
        var key: [UInt8] = []
        while key.count < 16 {
            let byte = source.bytes(1)[0]
            if byte < limit { key.append(alphabet[Int(byte) % alphabet.count]) }
        }
        return ZhitingSessionKey(validatedBytes: key)
    }

    private init(validatedBytes: [UInt8]) {
        bytes = validatedBytes
    }
}
