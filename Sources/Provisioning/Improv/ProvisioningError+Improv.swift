import Improv

/// What the flow knew when an Improv run failed, so the message can name it.
struct ImprovFailureContext {
    /// The network the device was to join.
    var ssid: String?
    /// What the flow was doing, in words.
    var activity: String
    /// What the device said it supports, once read.
    var capabilities: ImprovCapabilities?
}

/// How Improv failures read to a person: one message, one hint, a stable code.
///
/// Table: "unable to connect" → `improv.wifi-unable-to-connect` (7); nobody authorized the device →
/// `improv.authorization-timeout` (9); a command the device lacks → `improv.not-supported` (2); a
/// provisioned device → `improv.already-provisioned` (4); any other error the device reports →
/// `improv.rejected` (5); bytes that break the specification → `improv.protocol-error` (5); no answer
/// → `timeout` (9); settings the core refuses → `usage.invalid-option` (2).
extension ProvisioningError {
    static func improv(_ error: ImprovError, _ context: ImprovFailureContext) -> ProvisioningError {
        switch error {
        case .device(.unableToConnect, .sendWiFiSettings):
            return ProvisioningError(
                .improvWiFiUnableToConnect,
                "The device could not join \(context.ssid.map { "\"\($0)\"" } ?? "the network") "
                    + "(Improv: unable to connect).",
                hint: "Check the password and that the network is 2.4 GHz and in range of the device, "
                    + "then run the command again.",
                detail: "error state 0x03")
        case .device(let deviceError, let command):
            return ProvisioningError(
                .improvRejected, "The device refused \(command): \(deviceError).",
                hint: deviceError == .badHostname
                    ? "Give a hostname of letters, digits and inner hyphens that the device accepts."
                    : "Run the command again; if it repeats, power-cycle the device and report its firmware.",
                detail: "error state 0x\(String(deviceError.code, radix: 16))")
        case .authorizationTimedOut:
            return ProvisioningError(
                .improvAuthorizationTimeout, "Nobody authorized the device in time (Improv asks for a button press).",
                hint: "Run the command again and press the device's button (or do what its manual says) "
                    + "when ztprov asks; --authorization-timeout gives more time.")
        case .alreadyProvisioned:
            return ProvisioningError(
                .improvAlreadyProvisioned,
                "The device is already provisioned; its Improv service accepts nothing more.",
                hint: "Reset the device's Wi-Fi settings (see its manual) to provision it again.")
        case .unsupported(let command):
            return ProvisioningError(
                .improvNotSupported,
                "The device does not support \(command)"
                    + (context.capabilities.map { " (it supports: \($0))" } ?? "") + ".",
                hint: "Leave out the option that asks for it and run the command again.")
        case .noReply(let command):
            return ProvisioningError(
                .timeout, "The device did not answer \(command) in time.",
                hint: "Keep the device powered and close to the adapter, then run the command again.")
        case .invalidSSID(let length):
            return invalidImprovSetting("The SSID must be 1 to 32 bytes; this one has \(length).")
        case .invalidPassword(let length):
            return invalidImprovSetting(
                "The password must be 8 to 63 characters or 64 hex digits; this one has \(length) bytes.")
        case .invalidHostname:
            return invalidImprovSetting(
                "The hostname must be letters, digits and inner hyphens, 1 to 63 per dot-separated label.")
        case .invalidDeviceName, .dataTooLong:
            return invalidImprovSetting("The device name must be 1 to 254 bytes.")
        default:
            return ProvisioningError(
                .improvProtocolError,
                "The device sent an Improv value this tool cannot use while \(context.activity).",
                hint:
                    "Run the command again; if it repeats, report the device model and firmware with --verbose output.",
                detail: "\(error)")
        }
    }

    /// The whole operation's time ran out during a wait that is not the authorization.
    static func improvOverallTimeout(while activity: String) -> ProvisioningError {
        ProvisioningError(
            .timeout, "The operation's time ran out while \(activity).",
            hint: "Give more time with --timeout, or keep the device closer to the adapter.")
    }

    /// A read or write the device never completed: the link is stuck even if it has not dropped yet.
    static func improvStepTimedOut(_ doing: String, within limit: Duration) -> ProvisioningError {
        ProvisioningError(
            .timeout, "The device did not respond within \(limit.components.seconds) s while \(doing).",
            hint: "Keep the device powered and close to the adapter, then run the command again.")
    }

    /// The conversation neither waits nor acts: a defect in ztprov, not in the device.
    static let improvSessionStalled = ProvisioningError(
        .improvProtocolError, "ztprov's Improv session stopped without a result (a bug in ztprov).",
        hint: "Run the command again, and please report it with the output of --verbose.")

    private static func invalidImprovSetting(_ message: String) -> ProvisioningError {
        ProvisioningError(.invalidOption, message, hint: "Correct the value and run the command again.")
    }
}
