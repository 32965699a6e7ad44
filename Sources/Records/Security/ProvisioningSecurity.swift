/// What a unit was provisioned with, as negotiated: the protocol's security scheme and whether the BLE link
/// itself was encrypted. Records keep it as one text (``text``), so a security team can audit every unit.
public struct ProvisioningSecurity: Sendable, Hashable, Codable {
    /// A protocol's security as it ran.
    public enum Scheme: String, Sendable, Hashable, Codable, CaseIterable {
        /// BluFi without its own security: the settings travel in plaintext.
        case bluFiNone = "blufi-none"
        /// BluFi V1: DH-1024 key exchange, AES-128-CFB.
        case bluFiV1 = "blufi-v1"
        /// BluFi V2: ffdhe3072 key exchange, AES-256-CTR.
        case bluFiV2 = "blufi-v2"
        /// protocomm security 0: plaintext.
        case protocomm0 = "protocomm-sec0"
        /// protocomm security 1 without a PoP: X25519 and AES-CTR, no proof of who answers.
        case protocomm1 = "protocomm-sec1"
        /// protocomm security 1 with a proof of possession mixed into the key.
        case protocomm1WithPoP = "protocomm-sec1-pop"
        /// protocomm security 2: SRP6a with the device's password, AES-GCM.
        case protocomm2 = "protocomm-sec2"
        /// Improv without authorization: plaintext, nobody confirmed the device.
        case improv = "improv"
        /// Improv after a person authorized the device (its button): plaintext, but the device is the one meant.
        case improvAuthorized = "improv-authorized"

        /// Whether the protocol encrypts the credentials itself.
        public var encryptsCredentials: Bool {
            switch self {
            case .bluFiV1, .bluFiV2, .protocomm1, .protocomm1WithPoP, .protocomm2: true
            case .bluFiNone, .protocomm0, .improv, .improvAuthorized: false
            }
        }

        /// Whether the run proved the device is the one meant (a shared secret, or a person at the device).
        public var provesDevice: Bool {
            switch self {
            case .protocomm1WithPoP, .protocomm2, .improvAuthorized: true
            case .bluFiNone, .bluFiV1, .bluFiV2, .protocomm0, .protocomm1, .improv: false
            }
        }
    }

    public var scheme: Scheme
    /// Whether the BLE link was encrypted (the device paired); false on a plain link or a SoftAP run.
    public var linkEncrypted: Bool

    public init(_ scheme: Scheme, linkEncrypted: Bool = false) {
        self.scheme = scheme
        self.linkEncrypted = linkEncrypted
    }

    /// Encrypted when the protocol or the link encrypts; authenticated when it is encrypted and the device
    /// was proven too. Improv's authorization over a plain link proves the device but sends the credentials
    /// in plaintext, so it stays `none`.
    public var level: SecurityLevel {
        guard scheme.encryptsCredentials || linkEncrypted else { return .none }
        return scheme.provesDevice ? .authenticated : .encrypted
    }

    /// The stored and exported spelling: the scheme, `+encrypted-link` when the link was encrypted
    /// (`protocomm-sec1-pop`, `improv+encrypted-link`).
    public var text: String { scheme.rawValue + (linkEncrypted ? Self.encryptedLinkSuffix : "") }

    /// The security a stored ``text`` names; nil for text this build does not know.
    public init?(text: String) {
        let linkEncrypted = text.hasSuffix(Self.encryptedLinkSuffix)
        guard let scheme = Scheme(rawValue: String(text.dropLast(linkEncrypted ? Self.encryptedLinkSuffix.count : 0)))
        else { return nil }
        self.init(scheme, linkEncrypted: linkEncrypted)
    }

    private static let encryptedLinkSuffix = "+encrypted-link"
}
