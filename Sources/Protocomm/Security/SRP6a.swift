import CryptoPrimitives

/// SRP6a as protocomm security 2 runs it (ESP-IDF's `components/protocomm/src/crypto/srp6a/esp_srp.c`): the
/// RFC 5054 3072-bit group, g = 5, SHA-512 for every hash.
///
/// Glossary: N prime, g generator, k = H(N ‖ PAD(g)), s salt, I username, p password,
/// x = H(s ‖ H(I ‖ ":" ‖ p)), v = g^x verifier, a/b secrets, A = g^a, B = k·v + g^b,
/// u = H(PAD(A) ‖ PAD(B)), S premaster secret, K = H(S) session key, M client proof,
/// H_AMK = H(A ‖ M ‖ K) device proof. PAD left-pads to 384 bytes; S is hashed in minimal form.
enum SRP6a {
    /// Width of N, and of A as the device insists on receiving it.
    static let byteCount = 384
    /// Length of a SHA-512 output: proofs and K.
    static let hashLength = 64
    /// Length of the random secrets a and b (256 bits, like the device).
    static let secretLength = 32

    static let prime = BigNumber(bigEndian: primeBytes)
    static let generator = BigNumber(5)

    /// k = H(N ‖ PAD(g)).
    static let multiplier = BigNumber(bigEndian: hash(primeBytes + pad(generator)))

    /// H(N) XOR H(PAD(g)), the first term of the client proof.
    static let groupHash = zip(hash(primeBytes), hash(pad(generator))).map { $0 ^ $1 }

    static func hash(_ data: [UInt8]) -> [UInt8] {
        Digest.sha512(data)
    }

    /// A value left-padded to 384 bytes; callers make sure it is below 2^3072.
    static func pad(_ value: BigNumber) -> [UInt8] {
        value.bigEndianBytes(count: byteCount)
    }

    /// g^secret mod N.
    static func publicValue(secret: BigNumber) -> BigNumber {
        generator.power(secret, modulus: prime)
    }

    /// x = H(s ‖ H(I ‖ ":" ‖ p)), with the salt as its raw bytes.
    static func passwordExponent(username: [UInt8], password: [UInt8], salt: [UInt8]) -> BigNumber {
        BigNumber(bigEndian: hash(salt + hash(username + Array(":".utf8) + password)))
    }

    /// u = H(PAD(A) ‖ PAD(B)); both values must already be known to fit in 384 bytes.
    static func scrambler(clientPublic: [UInt8], devicePublic: [UInt8]) -> BigNumber {
        BigNumber(
            bigEndian: hash(
                pad(BigNumber(bigEndian: clientPublic)) + pad(BigNumber(bigEndian: devicePublic))))
    }

    /// K = H(S), S in minimal big-endian form.
    static func sessionKey(premaster: BigNumber) -> [UInt8] {
        hash(premaster.magnitude)
    }

    /// M = H(H(N) XOR H(g) ‖ H(I) ‖ s ‖ A ‖ B ‖ K), with s, A and B exactly as exchanged.
    static func clientProof(
        username: [UInt8], salt: [UInt8], clientPublic: [UInt8], devicePublic: [UInt8], sessionKey: [UInt8]
    ) -> [UInt8] {
        hash(groupHash + hash(username) + salt + clientPublic + devicePublic + sessionKey)
    }

    /// H_AMK = H(A ‖ M ‖ K).
    static func deviceProof(clientPublic: [UInt8], clientProof: [UInt8], sessionKey: [UInt8]) -> [UInt8] {
        hash(clientPublic + clientProof + sessionKey)
    }

    /// The AES-256-GCM key: the first 32 bytes of K.
    static func encryptionKey(sessionKey: [UInt8]) -> [UInt8] {
        Array(sessionKey.prefix(32))
    }

    /// RFC 5054 appendix A, 3072-bit group (the same prime as RFC 3526 group 15).
    private static let primeBytes = hexBytes(
        """
        FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD\
        EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED\
        EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F\
        83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B\
        E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510\
        15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7\
        ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C\
        BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF
        """)

    /// Decodes a hex literal written in this file.
    private static func hexBytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { index in
            UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16)!
        }
    }
}
