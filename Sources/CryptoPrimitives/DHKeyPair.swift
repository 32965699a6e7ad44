/// One side's Diffie–Hellman key pair in a ``DHGroup``.
public struct DHKeyPair: Sendable {
    public let group: DHGroup
    public let privateKey: BigNumber
    /// g^x mod p as big-endian bytes, left-padded to the group's width (128 bytes for BluFi V1, 384 for V2).
    public let publicKey: [UInt8]

    /// Builds the pair from a given private exponent (worked examples inject theirs).
    public init(group: DHGroup, privateKey: [UInt8]) throws(CryptoError) {
        let exponent = BigNumber(bigEndian: privateKey)
        guard !exponent.isZero else { throw .invalidKeyLength(0) }
        self.group = group
        self.privateKey = exponent
        publicKey = group.generator.power(exponent, modulus: group.prime).bigEndianBytes(count: group.byteCount)
    }

    /// A fresh pair whose private exponent has `privateKeyByteCount` random bytes (default: the group's width).
    public static func generate(
        in group: DHGroup, privateKeyByteCount: Int? = nil, using random: inout some RandomSource
    ) -> DHKeyPair {
        while true {
            let candidate = random.bytes(privateKeyByteCount ?? group.byteCount)
            if let pair = try? DHKeyPair(group: group, privateKey: candidate) { return pair }
        }
    }

    /// Agrees on the shared secret with a peer's public key, rejecting 0, 1, p − 1 and anything ≥ p.
    public func sharedSecret(peerPublicKey: [UInt8]) throws(CryptoError) -> DHSharedSecret {
        let peer = BigNumber(bigEndian: peerPublicKey)
        let pMinusOne = group.prime.subtracting(BigNumber(1), modulus: group.prime)
        guard BigNumber(1) < peer, peer < pMinusOne else { throw .invalidPublicKey }
        let secret = peer.power(privateKey, modulus: group.prime)
        return DHSharedSecret(fixedWidth: secret.bigEndianBytes(count: group.byteCount))
    }
}

/// A Diffie–Hellman shared secret in both byte forms protocols disagree on.
public struct DHSharedSecret: Sendable, Equatable {
    /// Zero-padded to the group width (PSA/RFC 7919 style; BluFi V2 hashes this).
    public let fixedWidth: [UInt8]

    /// Leading zero bytes removed (mbedTLS/RFC 5246 style; BluFi V1 hashes this).
    public var stripped: [UInt8] { Array(fixedWidth.drop { $0 == 0 }) }
}
