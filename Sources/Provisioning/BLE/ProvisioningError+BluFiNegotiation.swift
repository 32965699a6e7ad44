import BluFi

/// Key agreement failures (exit 6), on either side.
extension ProvisioningError {
    static func bluFiNegotiation(_ error: BluFiError, _ context: BluFiFailureContext) -> ProvisioningError {
        let scheme = context.scheme.displayName
        let message =
            switch error {
            case .checksumMismatch:
                "The device's frames fail their checksum after the \(scheme) key exchange: "
                    + "the two sides derived different keys."
            case .invalidPublicKey: "The device answered the \(scheme) key exchange with an unusable key."
            case .encryptedBeforeNegotiation: "The device encrypted a frame before any key was agreed."
            default: "The \(scheme) key exchange failed inside the crypto library."
            }
        let hint =
            if case .cryptoFailed = error { "Run the command again." } else { otherSchemeHint(context.scheme) }
        return ProvisioningError(.bluFiNegotiationFailed, message, hint: hint, detail: "\(error)")
    }

    static func bluFiNegotiationRejected(_ code: BluFiDeviceErrorCode, _ context: BluFiFailureContext)
        -> ProvisioningError
    {
        let scheme = context.scheme.displayName
        let (message, hint): (String, String) =
            switch code {
            case .initSecurity:
                (
                    "The device has no BluFi security set up and refused the \(scheme) key exchange (\(code)).",
                    "Run the command again with --security none."
                )
            case .dhParameter, .readParameter, .makePublic:
                (
                    "The device rejected the \(scheme) key-exchange parameters (\(code)).",
                    otherSchemeHint(context.scheme)
                )
            case .checksum, .decrypt:
                (
                    "The device could not read our frames after the \(scheme) key exchange (\(code)): "
                        + "the two sides derived different keys.",
                    otherSchemeHint(context.scheme)
                )
            default:
                (
                    "The device failed during the \(scheme) key exchange (\(code)), usually for lack of memory.",
                    "Power-cycle the device and run the command again."
                )
            }
        return ProvisioningError(.bluFiNegotiationFailed, message, hint: hint, detail: "device error \(code.rawValue)")
    }

    /// The firmware may keep the other scheme's callbacks whatever version it reports.
    private static func otherSchemeHint(_ scheme: BluFiSecurityScheme) -> String {
        let other =
            switch scheme {
            case .v1: "--security v2"
            case .v2: "--security v1"
            case .none: "--security v1 or --security v2"
            }
        return "The firmware may use another scheme than its version suggests: run again with \(other)."
    }
}
