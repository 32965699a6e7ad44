public import CryptoPrimitives

/// The symmetric key material one negotiation yields, and the per-direction ciphers built from it.
///
/// The secret's byte form matters: V1 devices (mbedTLS) hash the secret *without* leading zero bytes,
/// V2 devices (PSA) hash it zero-padded to 384 bytes. Getting this wrong fails about one session in 256.
public struct BluFiSessionKeys: Sendable, Equatable {
    /// V1 or V2.
    public let scheme: BluFiSecurityScheme
    /// AES-128 key for V1, AES-256 key for V2.
    public let key: [UInt8]
    /// V2 only: initial counter of the phone → device stream, SHA-256("blufi_dec" ‖ secret)[0..<16].
    public let phoneToDeviceIV: [UInt8]?
    /// V2 only: initial counter of the device → phone stream, SHA-256("blufi_enc" ‖ secret)[0..<16].
    public let deviceToPhoneIV: [UInt8]?

    /// V1: key = MD5 of the leading-zero-stripped secret.
    public static func v1(sharedSecret: DHSharedSecret) -> BluFiSessionKeys {
        BluFiSessionKeys(
            scheme: .v1, key: Digest.md5(sharedSecret.stripped), phoneToDeviceIV: nil, deviceToPhoneIV: nil)
    }

    /// V2: key = SHA-256 of the padded secret; the IV labels are named from the device's point of view.
    public static func v2(sharedSecret: DHSharedSecret) -> BluFiSessionKeys {
        let secret = sharedSecret.fixedWidth
        return BluFiSessionKeys(
            scheme: .v2,
            key: Digest.sha256(secret),
            phoneToDeviceIV: Array(Digest.sha256(Array("blufi_dec".utf8) + secret).prefix(16)),
            deviceToPhoneIV: Array(Digest.sha256(Array("blufi_enc".utf8) + secret).prefix(16))
        )
    }

    /// A fresh cipher for frames travelling in `direction` (a V2 stream starts at position 0).
    public func cipher(for direction: BluFiDirection) -> BluFiCipher {
        switch (phoneToDeviceIV, deviceToPhoneIV) {
        case (let phoneIV?, let deviceIV?):
            BluFiCipher(streamKey: key, initialCounter: direction == .phoneToDevice ? phoneIV : deviceIV)
        default:
            BluFiCipher(perFrameKey: key)
        }
    }
}
