/// Namespace for the AES modes the provisioning protocols use.
///
/// Keys of 16, 24 or 32 bytes pick AES-128, AES-192 or AES-256.
public enum AES {
    static let blockSize = 16

    static func checkKey(_ key: [UInt8]) throws(CryptoError) {
        guard [16, 24, 32].contains(key.count) else { throw .invalidKeyLength(key.count) }
    }

    static func checkBlockSizedIV(_ iv: [UInt8]) throws(CryptoError) {
        guard iv.count == blockSize else { throw .invalidNonceLength(iv.count) }
    }
}
