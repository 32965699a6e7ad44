import CryptoPrimitives

/// The one payload cipher of the protocol: AES-128-CBC with PKCS#7, keyed from a 16-byte secret.
///
/// key = MD5(secret), IV = MD5(key ‖ secret). The secret is the ASCII session key for the token
/// reply and the raw token for everything after it (`getKeyAndIV` in the SA hub's
/// `modules/sadiscover/packet.go`).
struct ZhitingPayloadCipher: Sendable {
    private let key: [UInt8]
    private let iv: [UInt8]

    init(secret: [UInt8]) {
        key = Digest.md5(secret)
        iv = Digest.md5(key + secret)
    }

    func encrypt(_ plaintext: [UInt8]) -> [UInt8] {
        // MD5 always yields a valid 16-byte key and IV, so the facade cannot refuse them.
        (try? AES.CBC.encrypt(plaintext, key: key, iv: iv)) ?? []
    }

    func decrypt(_ ciphertext: [UInt8]) throws(ZhitingLANError) -> [UInt8] {
        do {
            return try AES.CBC.decrypt(ciphertext, key: key, iv: iv)
        } catch {
            throw .undecryptablePayload
        }
    }
}
