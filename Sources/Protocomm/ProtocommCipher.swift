import CryptoPrimitives

/// The encryption a finished handshake leaves behind, applied to every payload on
/// `prov-config`, `prov-scan`, `prov-ctrl` and custom endpoints.
///
/// Client and device hold the same kind of cipher: security 1 is one AES-CTR keystream that both
/// directions consume in wire order, and security 2 patch 1 advances its nonce counter on every
/// encrypt *and* decrypt, so each side must call ``encrypt(_:)`` and ``decrypt(_:)`` exactly once per
/// message, in the order the messages travel.
public struct ProtocommCipher: Sendable {
    enum Mode: Sendable {
        case plaintext
        case stream(AESCTRStream)
        case gcm(key: [UInt8], nonce: GCMNonce)
    }

    private var mode: Mode

    init(_ mode: Mode) {
        self.mode = mode
    }

    /// Security 0: payloads travel as they are.
    public static let plaintext = ProtocommCipher(.plaintext)

    /// The scheme this cipher belongs to.
    public var level: ProtocommSecurityLevel {
        switch mode {
        case .plaintext: .security0
        case .stream: .security1
        case .gcm: .security2
        }
    }

    /// Encrypts an outgoing payload.
    public mutating func encrypt(_ plaintext: [UInt8]) throws(ProtocommError) -> [UInt8] {
        switch mode {
        case .plaintext:
            return plaintext
        case .stream(var stream):
            defer { mode = .stream(stream) }
            return stream.apply(plaintext)
        case .gcm(let key, var nonce):
            let iv = try nonce.next()
            mode = .gcm(key: key, nonce: nonce)
            do {
                return try AES.GCM.seal(plaintext, key: key, nonce: iv)
            } catch {
                throw .cryptoFailure(error)
            }
        }
    }

    /// Decrypts an incoming payload.
    public mutating func decrypt(_ ciphertext: [UInt8]) throws(ProtocommError) -> [UInt8] {
        switch mode {
        case .plaintext:
            return ciphertext
        case .stream(var stream):
            defer { mode = .stream(stream) }
            return stream.apply(ciphertext)
        case .gcm(let key, var nonce):
            guard ciphertext.count >= AES.GCM.tagSize else { throw .truncatedCiphertext(length: ciphertext.count) }
            let iv = try nonce.next()
            mode = .gcm(key: key, nonce: nonce)
            do {
                return try AES.GCM.open(ciphertext, key: key, nonce: iv)
            } catch .authenticationFailed {
                throw .authenticationFailed
            } catch {
                throw .cryptoFailure(error)
            }
        }
    }
}
