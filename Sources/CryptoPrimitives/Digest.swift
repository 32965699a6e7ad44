/// One-shot message digests.
public enum Digest {
    /// MD5 (RFC 1321).
    ///
    /// Only for protocols that demand it (BluFi V1 keys, Zhiting LAN keys); never for security of our own.
    public static func md5(_ data: [UInt8]) -> [UInt8] {
        OpenSSLDigest.compute(.md5, data)
    }

    /// SHA-256 (FIPS 180-4).
    public static func sha256(_ data: [UInt8]) -> [UInt8] {
        OpenSSLDigest.compute(.sha256, data)
    }

    /// SHA-512 (FIPS 180-4).
    public static func sha512(_ data: [UInt8]) -> [UInt8] {
        OpenSSLDigest.compute(.sha512, data)
    }
}
