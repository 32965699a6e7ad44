internal import COpenSSL

/// X25519 through EVP raw keys; no OSSL_PARAM names are involved, so the key-name pointer trap does not apply.
enum OpenSSLX25519 {
    static func publicKey(privateKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        try withPrivateKey(privateKey) { key throws(CryptoError) in
            var output = [UInt8](repeating: 0, count: X25519KeyPair.keySize)
            var length = output.count
            guard EVP_PKEY_get_raw_public_key(key, &output, &length) == 1 else {
                throw OpenSSLErrorQueue.drain(context: "EVP_PKEY_get_raw_public_key")
            }
            return output
        }
    }

    static func sharedSecret(privateKey: [UInt8], peerPublicKey: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let peer = EVP_PKEY_new_raw_public_key(COpenSSL_EVP_PKEY_X25519, nil, peerPublicKey, peerPublicKey.count)
        else { throw OpenSSLErrorQueue.drain(context: "EVP_PKEY_new_raw_public_key") }
        defer { EVP_PKEY_free(peer) }
        return try withPrivateKey(privateKey) { key throws(CryptoError) in
            guard let context = EVP_PKEY_CTX_new(key, nil) else {
                throw OpenSSLErrorQueue.drain(context: "EVP_PKEY_CTX_new")
            }
            defer { EVP_PKEY_CTX_free(context) }
            guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, peer) == 1 else {
                throw OpenSSLErrorQueue.drain(context: "EVP_PKEY_derive_init")
            }
            var secret = [UInt8](repeating: 0, count: X25519KeyPair.keySize)
            var length = secret.count
            // OpenSSL refuses an all-zero result, which only a small-order peer key produces.
            guard EVP_PKEY_derive(context, &secret, &length) == 1 else {
                ERR_clear_error()
                throw .degenerateSharedSecret
            }
            return secret
        }
    }

    private static func withPrivateKey<T>(
        _ privateKey: [UInt8], _ body: (OpaquePointer) throws(CryptoError) -> T
    ) throws(CryptoError) -> T {
        guard let key = EVP_PKEY_new_raw_private_key(COpenSSL_EVP_PKEY_X25519, nil, privateKey, privateKey.count)
        else { throw OpenSSLErrorQueue.drain(context: "EVP_PKEY_new_raw_private_key") }
        defer { EVP_PKEY_free(key) }
        return try body(key)
    }
}
