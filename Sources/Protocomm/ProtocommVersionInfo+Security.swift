/// The automatic security choice, the one Espressif's iOS provisioning library (ESPProvision) makes;
/// the caller can always override it.
extension ProtocommVersionInfo {
    /// `sec_ver` when present; otherwise security 0 if `no_sec` is listed, else security 1.
    public func recommendedSecurityLevel() throws(ProtocommError) -> ProtocommSecurityLevel {
        guard let securityVersion else { return has(.noSecurity) ? .security0 : .security1 }
        guard let level = ProtocommSecurityLevel(rawValue: securityVersion) else {
            throw .unsupportedSecurityVersion(securityVersion)
        }
        return level
    }

    /// The security 2 nonce scheme `sec_patch_ver` names; nil when absent or unknown, which leaves
    /// the choice to the length of the device's nonce.
    public var security2Patch: ProtocommSecurity2Patch? {
        securityPatchVersion.flatMap(ProtocommSecurity2Patch.init(rawValue:))
    }

    /// Whether a security 1 session with this device needs a proof of possession from the user.
    public var requiresProofOfPossession: Bool {
        !has(.noProofOfPossession)
    }

    /// The scheme and credentials to open a session with.
    ///
    /// - Parameters:
    ///   - level: forces a scheme instead of the recommended one.
    ///   - patch: forces a security 2 nonce scheme instead of `sec_patch_ver`.
    ///   - credentials: the user's secrets; only those the scheme needs are used.
    public func security(
        level: ProtocommSecurityLevel? = nil,
        patch: ProtocommSecurity2Patch? = nil,
        credentials: ProtocommCredentials
    ) throws(ProtocommError) -> ProtocommSecurity {
        let chosen: ProtocommSecurityLevel
        if let level { chosen = level } else { chosen = try recommendedSecurityLevel() }
        switch chosen {
        case .security0:
            return .security0
        case .security1:
            // Clients skip the PoP whenever the device says it has none (Android does the same).
            guard requiresProofOfPossession else { return .security1(proofOfPossession: "") }
            guard let pop = credentials.proofOfPossession else { throw .missingCredentials(.security1) }
            return .security1(proofOfPossession: pop)
        case .security2:
            guard let username = credentials.username, let password = credentials.password else {
                throw .missingCredentials(.security2)
            }
            return .security2(username: username, password: password, patch: patch ?? security2Patch)
        }
    }
}
