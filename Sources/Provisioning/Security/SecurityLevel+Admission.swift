public import Records

/// `--min-security` as a decision: the flows ask it once the device's security is negotiated and before any
/// credential is sent, so a device below the floor never receives one.
extension SecurityLevel {
    /// Throws ``ErrorCode/securityBelowMinimum`` when `security` is below this level.
    public func admit(_ security: ProvisioningSecurity) throws(ProvisioningError) {
        guard security.level < self else { return }
        throw ProvisioningError.securityBelowMinimum(security, required: self)
    }
}

extension ProvisioningError {
    static func securityBelowMinimum(_ security: ProvisioningSecurity, required: SecurityLevel) -> ProvisioningError {
        ProvisioningError(
            .securityBelowMinimum,
            "The device runs \(security.summary) (\(security.level.rawValue)); --min-security asks for "
                + "\(required.rawValue). Nothing was sent to it.",
            hint: ErrorCode.securityBelowMinimum.hint)
    }
}
