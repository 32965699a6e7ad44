import CryptoPrimitives

/// The parts of security 1 both sides compute identically.
enum Security1Key {
    static let deviceRandomLength = 16

    /// The AES-256 key: the X25519 shared secret, XORed with SHA-256(PoP) when there is a PoP.
    static func derive(
        keyPair: X25519KeyPair, peerPublicKey: [UInt8], proofOfPossession: [UInt8]
    ) throws(ProtocommError) -> [UInt8] {
        guard peerPublicKey.count == X25519KeyPair.keySize else {
            throw .invalidLength(field: "pubkey", length: peerPublicKey.count)
        }
        let shared: [UInt8]
        do {
            shared = try keyPair.sharedSecret(peerPublicKey: peerPublicKey)
        } catch .degenerateSharedSecret, .invalidPublicKey {
            throw .degenerateKeyAgreement
        } catch {
            throw .cryptoFailure(error)
        }
        // An empty PoP means "no PoP": both sides then use the bare shared secret.
        guard !proofOfPossession.isEmpty else { return shared }
        return zip(shared, Digest.sha256(proofOfPossession)).map { $0 ^ $1 }
    }

    /// The one keystream both directions share, starting at the device's random counter block.
    static func stream(key: [UInt8], deviceRandom: [UInt8]) throws(ProtocommError) -> AESCTRStream {
        guard deviceRandom.count == deviceRandomLength else {
            throw .invalidLength(field: "device_random", length: deviceRandom.count)
        }
        do {
            return try AESCTRStream(key: key, initialCounter: deviceRandom)
        } catch {
            throw .cryptoFailure(error)
        }
    }
}

/// Compares secrets without an early exit, so timing does not reveal how many bytes matched.
func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return zip(lhs, rhs).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
}
