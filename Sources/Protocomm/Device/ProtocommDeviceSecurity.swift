/// The security scheme a device runs, with what it stores: the PoP for security 1, the SRP
/// verifier and patch level for security 2.
public enum ProtocommDeviceSecurity: Hashable, Sendable {
    /// Security 0: plaintext.
    case security0
    /// An empty PoP is a device built without one (it advertises `no_pop`).
    case security1(proofOfPossession: String)
    /// Security 2 with the stored SRP verifier and the nonce scheme of its firmware.
    case security2(verifier: ProtocommSecurity2Verifier, patch: ProtocommSecurity2Patch)

    /// The scheme number.
    public var level: ProtocommSecurityLevel {
        switch self {
        case .security0: .security0
        case .security1: .security1
        case .security2: .security2
        }
    }
}
