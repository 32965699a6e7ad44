/// An X25519 (RFC 7748) key pair with raw 32-byte keys (protocomm security 1).
public struct X25519KeyPair: Sendable {
    public static let keySize = 32

    /// The raw private scalar as given; clamping happens inside X25519 itself.
    public let privateKey: [UInt8]
    /// The raw 32-byte u-coordinate.
    public let publicKey: [UInt8]

    public init(privateKey: [UInt8]) throws(CryptoError) {
        guard privateKey.count == Self.keySize else { throw .invalidKeyLength(privateKey.count) }
        self.privateKey = privateKey
        publicKey = try OpenSSLX25519.publicKey(privateKey: privateKey)
    }

    /// A fresh pair drawn from `random`.
    public static func generate(using random: inout some RandomSource) -> X25519KeyPair {
        // Every 32-byte string is a valid X25519 private key, so this cannot throw.
        try! X25519KeyPair(privateKey: random.bytes(keySize))
    }

    /// The 32-byte shared secret; refuses peer keys of the wrong length or of small order.
    public func sharedSecret(peerPublicKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard peerPublicKey.count == Self.keySize else { throw .invalidPublicKey }
        return try OpenSSLX25519.sharedSecret(privateKey: privateKey, peerPublicKey: peerPublicKey)
    }
}
