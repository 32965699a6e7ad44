extension AES {
    /// AES in CBC mode with PKCS#7 padding (Zhiting LAN payloads).
    public enum CBC {
        /// Pads `plaintext` to whole blocks and encrypts it.
        public static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
            try checkKey(key)
            try checkBlockSizedIV(iv)
            return try OpenSSLCipher.crypt(.cbc, key: key, iv: iv, input: plaintext, encrypting: true, padded: true)
        }

        /// Decrypts and removes the padding; ``CryptoError/invalidPadding`` when the key or data is wrong.
        public static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
            try checkKey(key)
            try checkBlockSizedIV(iv)
            guard !ciphertext.isEmpty, ciphertext.count % blockSize == 0 else { throw .invalidPadding }
            return try OpenSSLCipher.crypt(.cbc, key: key, iv: iv, input: ciphertext, encrypting: false, padded: true)
        }
    }
}
