extension AES {
    /// AES-GCM with a 16-byte tag appended to the ciphertext (protocomm security 2 bodies).
    public enum GCM {
        /// Length of the authentication tag that ``seal(_:key:nonce:authenticating:)`` appends.
        public static let tagSize = 16

        /// Encrypts and authenticates; returns `ciphertext ‖ tag`.
        ///
        /// Any nonce length OpenSSL accepts works: 12 bytes is the norm, legacy protocomm firmware uses 16.
        public static func seal(
            _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], authenticating aad: [UInt8] = []
        ) throws(CryptoError) -> [UInt8] {
            try checkKey(key)
            guard !nonce.isEmpty else { throw .invalidNonceLength(0) }
            return try OpenSSLCipher.gcmSeal(plaintext, key: key, nonce: nonce, aad: aad, tagSize: tagSize)
        }

        /// Verifies the trailing tag and decrypts; ``CryptoError/authenticationFailed`` if anything is off.
        public static func open(
            _ sealed: [UInt8], key: [UInt8], nonce: [UInt8], authenticating aad: [UInt8] = []
        ) throws(CryptoError) -> [UInt8] {
            try checkKey(key)
            guard !nonce.isEmpty else { throw .invalidNonceLength(0) }
            guard sealed.count >= tagSize else { throw .authenticationFailed }
            let ciphertext = Array(sealed.dropLast(tagSize))
            let tag = Array(sealed.suffix(tagSize))
            return try OpenSSLCipher.gcmOpen(ciphertext, tag: tag, key: key, nonce: nonce, aad: aad)
        }
    }
}
