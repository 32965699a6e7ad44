/// The protocomm security scheme number (`sec_ver`), without credentials.
public enum ProtocommSecurityLevel: Int, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Security 0: plaintext.
    case security0 = 0
    /// Security 1: X25519, optional proof of possession, AES-256-CTR.
    case security1 = 1
    /// Security 2: SRP6a with username and password, AES-256-GCM.
    case security2 = 2

    /// E.g. `security 2`.
    public var description: String { "security \(rawValue)" }
}

/// How security 2 builds its AES-GCM nonce (`sec_patch_ver`; ESP-IDF's provisioning docs, "Security 2
/// AES-GCM IV Handling").
public enum ProtocommSecurity2Patch: Int, Hashable, Sendable, CaseIterable {
    /// Patch 0 (firmware before March 2025): one 16-byte device nonce reused for every message.
    case fixedNonce = 0
    /// Patch 1: 8-byte session id ‖ 32-bit big-endian counter from 1, advanced on every encrypt
    /// and decrypt.
    case counterNonce = 1

    /// Length of `device_nonce` a device of this patch level sends.
    public var deviceNonceLength: Int {
        switch self {
        case .fixedNonce: 16
        case .counterNonce: 12
        }
    }

    /// The patch level a nonce of this length belongs to, the fallback when `proto-ver` is silent.
    public init?(deviceNonceLength: Int) {
        guard let patch = Self.allCases.first(where: { $0.deviceNonceLength == deviceNonceLength }) else {
            return nil
        }
        self = patch
    }
}
