/// Why a cryptographic operation refused its input or failed inside OpenSSL.
public enum CryptoError: Error, Equatable, Sendable {
    /// A key of this many bytes does not fit the algorithm.
    case invalidKeyLength(Int)
    /// An IV, nonce or counter block of this many bytes does not fit the algorithm.
    case invalidNonceLength(Int)
    /// A peer's public value is outside the range a valid key can take (e.g. 0, 1 or p − 1 in DH).
    case invalidPublicKey
    /// The derived shared secret is degenerate (X25519 all-zero output: a small-order peer key).
    case degenerateSharedSecret
    /// CBC decryption found no valid PKCS#7 padding: wrong key or damaged ciphertext.
    case invalidPadding
    /// An AEAD tag did not verify: wrong key, wrong nonce or tampered data.
    case authenticationFailed
    /// OpenSSL itself failed; the text is its error queue.
    case library(String)
}
