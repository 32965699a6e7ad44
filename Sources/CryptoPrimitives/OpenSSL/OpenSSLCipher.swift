internal import COpenSSL

/// EVP symmetric ciphers: one context per call, freed before returning.
enum OpenSSLCipher {
    enum Mode {
        case cfb128, cbc, ctr, gcm
    }

    static func evpCipher(_ mode: Mode, keyCount: Int) -> OpaquePointer {
        switch (mode, keyCount) {
        case (.cfb128, 16): EVP_aes_128_cfb128()
        case (.cfb128, 24): EVP_aes_192_cfb128()
        case (.cfb128, _): EVP_aes_256_cfb128()
        case (.cbc, 16): EVP_aes_128_cbc()
        case (.cbc, 24): EVP_aes_192_cbc()
        case (.cbc, _): EVP_aes_256_cbc()
        case (.ctr, 16): EVP_aes_128_ctr()
        case (.ctr, 24): EVP_aes_192_ctr()
        case (.ctr, _): EVP_aes_256_ctr()
        case (.gcm, 16): EVP_aes_128_gcm()
        case (.gcm, 24): EVP_aes_192_gcm()
        case (.gcm, _): EVP_aes_256_gcm()
        }
    }

    /// Runs a non-AEAD mode over `input`; with `padded`, PKCS#7 is added or checked.
    static func crypt(
        _ mode: Mode, key: [UInt8], iv: [UInt8], input: [UInt8], encrypting: Bool, padded: Bool = false
    ) throws(CryptoError) -> [UInt8] {
        try withContext { context throws(CryptoError) in
            guard
                EVP_CipherInit_ex(context, evpCipher(mode, keyCount: key.count), nil, key, iv, encrypting ? 1 : 0) == 1
            else { throw OpenSSLErrorQueue.drain(context: "EVP_CipherInit_ex") }
            EVP_CIPHER_CTX_set_padding(context, padded ? 1 : 0)
            var output = [UInt8](repeating: 0, count: input.count + AES.blockSize)
            var written: Int32 = 0
            guard EVP_CipherUpdate(context, &output, &written, input, Int32(input.count)) == 1 else {
                throw OpenSSLErrorQueue.drain(context: "EVP_CipherUpdate")
            }
            var finalWritten: Int32 = 0
            let finished = output.withUnsafeMutableBufferPointer { buffer in
                EVP_CipherFinal_ex(context, buffer.baseAddress! + Int(written), &finalWritten)
            }
            guard finished == 1 else {
                if padded && !encrypting {
                    ERR_clear_error()
                    throw .invalidPadding
                }
                throw OpenSSLErrorQueue.drain(context: "EVP_CipherFinal_ex")
            }
            return Array(output.prefix(Int(written + finalWritten)))
        }
    }

    static func gcmSeal(
        _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8], tagSize: Int
    ) throws(CryptoError) -> [UInt8] {
        try withContext { context throws(CryptoError) in
            try initializeGCM(context, key: key, nonce: nonce, encrypting: true)
            var ciphertext = try gcmUpdate(context, aad: aad, input: plaintext)
            var final: Int32 = 0
            var scratch = [UInt8](repeating: 0, count: AES.blockSize)
            guard EVP_EncryptFinal_ex(context, &scratch, &final) == 1 else {
                throw OpenSSLErrorQueue.drain(context: "EVP_EncryptFinal_ex")
            }
            var tag = [UInt8](repeating: 0, count: tagSize)
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagSize), &tag) == 1 else {
                throw OpenSSLErrorQueue.drain(context: "EVP_CTRL_GCM_GET_TAG")
            }
            ciphertext += tag
            return ciphertext
        }
    }

    static func gcmOpen(
        _ ciphertext: [UInt8], tag: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        try withContext { context throws(CryptoError) in
            try initializeGCM(context, key: key, nonce: nonce, encrypting: false)
            let plaintext = try gcmUpdate(context, aad: aad, input: ciphertext)
            var expectedTag = tag
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tag.count), &expectedTag) == 1 else {
                throw OpenSSLErrorQueue.drain(context: "EVP_CTRL_GCM_SET_TAG")
            }
            var final: Int32 = 0
            var scratch = [UInt8](repeating: 0, count: AES.blockSize)
            guard EVP_DecryptFinal_ex(context, &scratch, &final) == 1 else {
                ERR_clear_error()
                throw .authenticationFailed
            }
            return plaintext
        }
    }

    private static func initializeGCM(
        _ context: OpaquePointer, key: [UInt8], nonce: [UInt8], encrypting: Bool
    ) throws(CryptoError) {
        let cipher = evpCipher(.gcm, keyCount: key.count)
        guard EVP_CipherInit_ex(context, cipher, nil, nil, nil, encrypting ? 1 : 0) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(nonce.count), nil) == 1,
            EVP_CipherInit_ex(context, nil, nil, key, nonce, encrypting ? 1 : 0) == 1
        else { throw OpenSSLErrorQueue.drain(context: "AES-GCM init") }
    }

    private static func gcmUpdate(_ context: OpaquePointer, aad: [UInt8], input: [UInt8]) throws(CryptoError) -> [UInt8]
    {
        var ignored: Int32 = 0
        if !aad.isEmpty {
            guard EVP_CipherUpdate(context, nil, &ignored, aad, Int32(aad.count)) == 1 else {
                throw OpenSSLErrorQueue.drain(context: "AES-GCM AAD")
            }
        }
        var output = [UInt8](repeating: 0, count: input.count + AES.blockSize)
        var written: Int32 = 0
        guard EVP_CipherUpdate(context, &output, &written, input, Int32(input.count)) == 1 else {
            throw OpenSSLErrorQueue.drain(context: "AES-GCM update")
        }
        return Array(output.prefix(Int(written)))
    }

    private static func withContext<T>(
        _ body: (OpaquePointer) throws(CryptoError) -> T
    ) throws(CryptoError) -> T {
        guard let context = EVP_CIPHER_CTX_new() else { throw OpenSSLErrorQueue.drain(context: "EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        return try body(context)
    }
}
