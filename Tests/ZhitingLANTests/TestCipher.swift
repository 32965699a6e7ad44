import CryptoPrimitives

/// An independent rendering of the payload cipher (key = MD5(secret), IV = MD5(key ‖ secret)),
/// written apart from the core so tests can forge device replies without the core's own code.
enum TestCipher {
    static func encrypt(_ plaintext: [UInt8], secret: [UInt8]) -> [UInt8] {
        let key = Digest.md5(secret)
        return try! AES.CBC.encrypt(plaintext, key: key, iv: Digest.md5(key + secret))
    }

    static func decrypt(_ ciphertext: [UInt8], secret: [UInt8]) throws -> [UInt8] {
        let key = Digest.md5(secret)
        return try AES.CBC.decrypt(ciphertext, key: key, iv: Digest.md5(key + secret))
    }
}
