import CryptoPrimitives

/// Encrypts or decrypts the data fields of one direction's frames after negotiation.
///
/// V1 restarts AES-128-CFB128 on every frame with the IV `[sequence, 0 × 15]`; V2 runs one AES-256-CTR
/// keystream for the whole session, so every encrypted frame must be processed exactly once and in order.
public struct BluFiCipher: Sendable {
    private enum Engine: Sendable {
        case perFrameCFB(key: [UInt8])
        case continuousCTR(AESCTRStream)
    }

    private var engine: Engine

    init(perFrameKey key: [UInt8]) {
        engine = .perFrameCFB(key: key)
    }

    init(streamKey key: [UInt8], initialCounter: [UInt8]) {
        // Both come from SHA-256 output sliced to valid AES sizes, so the stream cannot refuse them.
        guard let stream = try? AESCTRStream(key: key, initialCounter: initialCounter) else {
            preconditionFailure("BluFi V2 key or IV has an invalid length")
        }
        engine = .continuousCTR(stream)
    }

    /// Encrypts the plaintext data field of the frame numbered `sequence`.
    public mutating func encrypt(_ plaintext: [UInt8], sequence: UInt8) throws(BluFiError) -> [UInt8] {
        try apply(plaintext, sequence: sequence, encrypting: true)
    }

    /// Decrypts the data field of the frame numbered `sequence`.
    public mutating func decrypt(_ ciphertext: [UInt8], sequence: UInt8) throws(BluFiError) -> [UInt8] {
        try apply(ciphertext, sequence: sequence, encrypting: false)
    }

    private mutating func apply(_ data: [UInt8], sequence: UInt8, encrypting: Bool) throws(BluFiError) -> [UInt8] {
        guard !data.isEmpty else { return [] }
        switch engine {
        case .perFrameCFB(let key):
            let iv = [sequence] + [UInt8](repeating: 0, count: 15)
            do {
                return encrypting
                    ? try AES.CFB128.encrypt(data, key: key, iv: iv) : try AES.CFB128.decrypt(data, key: key, iv: iv)
            } catch {
                throw .cryptoFailed(error)
            }
        case .continuousCTR(var stream):
            let output = stream.apply(data)
            engine = .continuousCTR(stream)
            return output
        }
    }
}
