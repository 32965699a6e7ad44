/// A security scheme together with the credentials it needs: what a client session is built from.
public enum ProtocommSecurity: Sendable, Equatable {
    /// Security 0: no encryption.
    case security0
    /// Security 1 with this proof of possession; an empty PoP matches a device that advertises `no_pop`.
    case security1(proofOfPossession: String)
    /// Security 2 with SRP6a credentials. `patch` nil means "decide from the device nonce's length"
    /// (12 bytes: counter nonce, 16 bytes: fixed nonce), for firmware that does not send `sec_patch_ver`.
    case security2(username: String, password: String, patch: ProtocommSecurity2Patch?)

    /// The scheme number without credentials.
    public var level: ProtocommSecurityLevel {
        switch self {
        case .security0: .security0
        case .security1: .security1
        case .security2: .security2
        }
    }
}

/// Secrets the user supplied, any of which may be missing; ``ProtocommVersionInfo`` picks what the
/// chosen scheme needs.
public struct ProtocommCredentials: Sendable, Equatable {
    /// The security 1 proof of possession.
    public var proofOfPossession: String?
    /// The security 2 SRP username.
    public var username: String?
    /// The security 2 SRP password.
    public var password: String?

    /// Whatever the user gave; unused fields are ignored.
    public init(proofOfPossession: String? = nil, username: String? = nil, password: String? = nil) {
        self.proofOfPossession = proofOfPossession
        self.username = username
        self.password = password
    }
}
