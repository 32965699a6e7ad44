extension AES {
    /// AES in CFB mode with full 128-bit feedback and no padding (BluFi V1 frames).
    public enum CFB128 {
        /// Encrypts `plaintext`; the output has the same length.
        public static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
            try checkKey(key)
            try checkBlockSizedIV(iv)
            return try OpenSSLCipher.crypt(.cfb128, key: key, iv: iv, input: plaintext, encrypting: true)
        }

        /// Decrypts `ciphertext`; the output has the same length.
        public static func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
            try checkKey(key)
            try checkBlockSizedIV(iv)
            return try OpenSSLCipher.crypt(.cfb128, key: key, iv: iv, input: ciphertext, encrypting: false)
        }
    }
}
