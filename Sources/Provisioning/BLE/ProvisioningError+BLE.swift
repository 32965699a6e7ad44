import BluFi
import Transports

/// What the flow knew when a BluFi session failed, so the message can name it.
struct BluFiFailureContext {
    /// The scheme in use or about to be negotiated.
    var scheme: BluFiSecurityScheme
    /// The network the device was to join.
    var ssid: String?
    /// How long the session had waited for the reply that timed out.
    var waited: Duration?
    /// What the flow was doing, in words.
    var activity: String
    /// The whole operation's deadline passed, not just the step's.
    var overallLimitReached = false
}

/// How BluFi session failures read to a person: one message, one hint, a stable code.
///
/// Table: sequence errors → `blufi.sequence-mismatch`; a lost link → `ble.link-lost`; frames and
/// messages the flow cannot use → `blufi.protocol-error` (all 5); key agreement, checksums and device
/// codes 1–8, 10, 13 → `blufi.negotiation-failed` (6); the join → `blufi.wifi-…` (7); other waits →
/// `timeout` (9); invalid SSID or password lengths → `usage.invalid-option` (2).
extension ProvisioningError {
    static func bluFi(_ error: BluFiError, _ context: BluFiFailureContext) -> ProvisioningError {
        switch error {
        case .sequenceMismatch(let expected, let received):
            return bluFiSequenceMismatch(
                "The device's frames arrived out of order", "expected \(expected), got \(received)")
        case .deviceReportedError(let code):
            return bluFiDevice(code, context)
        case .linkLost, .notConnected:
            return ProvisioningError(
                .bleLinkLost,
                "The BLE link to the device dropped while \(context.activity).",
                hint: linkHint
            )
        case .checksumMismatch, .invalidPublicKey, .encryptedBeforeNegotiation, .cryptoFailed:
            return bluFiNegotiation(error, context)
        case .wifiConnectionFailed(let report):
            return bluFiJoinFailed(report, ssid: context.ssid)
        case .timedOut(let reply):
            return bluFiTimedOut(reply, context)
        case .invalidSSID(let count):
            return invalidBluFiSetting("The SSID must be 1 to 32 bytes; this one has \(count).")
        case .invalidPassword(let count):
            return invalidBluFiSetting("The password must be at most 64 bytes; this one has \(count).")
        case .invalidBSSID(let count):
            return invalidBluFiSetting("A BSSID has 6 bytes; this one has \(count).")
        case .busy, .sessionEnded, .messageTooLong, .encryptionUnavailable:
            return ProvisioningError(
                .bluFiProtocolError,
                "ztprov used its BluFi session out of order (a bug in ztprov).",
                hint: "Run the command again, and please report it with the output of --verbose.",
                detail: "\(error)"
            )
        default:
            return ProvisioningError(
                .bluFiProtocolError,
                "The device sent a BluFi frame this tool cannot use while \(context.activity).",
                hint:
                    "Run the command again; if it repeats, report the device model and firmware with --verbose output.",
                detail: "\(error)"
            )
        }
    }

    /// The link's own failure (the stack's error), kept as detail.
    static func bleLinkFailed(_ error: any Error, while activity: String) -> ProvisioningError {
        ProvisioningError(
            .bleLinkLost,
            "The BLE link to the device failed while \(activity).",
            hint: linkHint,
            detail: "\(error)"
        )
    }

    /// A write (or turning notifications on) the device never confirmed by the limit that ran out: the
    /// link is stuck even if it has not dropped yet.
    static func bleWriteUnconfirmed(_ ending: StepLimit.Ending, while activity: String) -> ProvisioningError {
        switch ending {
        case .own(let limit), .enclosing(let limit):
            ProvisioningError(
                .timeout,
                "The device did not confirm a BLE write within \(secondsText(limit)) while \(activity).",
                hint: linkHint
            )
        case .handedDown:
            ProvisioningError(
                .timeout,
                "The device did not confirm a BLE write before the overall time limit while \(activity).",
                hint: "Allow more time with --timeout; if the device stays this slow, move the adapter closer "
                    + "and power-cycle the device."
            )
        }
    }

    private static let linkHint =
        "Keep the device powered and within a few metres of the adapter, then run the command again; "
        + "`ztprov doctor` checks the adapter."

    private static func bluFiSequenceMismatch(_ what: String, _ detail: String) -> ProvisioningError {
        ProvisioningError(
            .bluFiSequenceMismatch,
            "\(what): a frame was lost or rejected, and a BluFi session cannot recover from that.",
            hint: "Run the command again (every run starts a fresh session); "
                + "if it repeats, move the adapter closer and power-cycle the device.",
            detail: detail
        )
    }

    private static func invalidBluFiSetting(_ message: String) -> ProvisioningError {
        ProvisioningError(.invalidOption, message, hint: "Correct the value and run the command again.")
    }

    private static func bluFiDevice(_ code: BluFiDeviceErrorCode, _ context: BluFiFailureContext) -> ProvisioningError {
        switch code {
        case .sequence:
            return bluFiSequenceMismatch(
                "The device rejected one of our frames as out of order (\(code))", "device error \(code.rawValue)")
        case .dataFormat, .messageState:
            return ProvisioningError(
                .bluFiProtocolError,
                "The device rejected a frame as malformed (\(code)) while \(context.activity).",
                hint: "The reference firmware accepts an SSID of at most 31 bytes and a password of at most 63; "
                    + "check both, then run the command again.",
                detail: "device error \(code.rawValue)"
            )
        case .wifiScan:
            return ProvisioningError(
                .bluFiWiFiScanFailed,
                "The device could not start a Wi-Fi scan (\(code)).",
                hint: "Run the command again, or give the network name with --ssid without listing networks.",
                detail: "device error \(code.rawValue)"
            )
        case .checksum, .decrypt, .encrypt, .initSecurity, .dhMalloc, .dhParameter, .readParameter, .makePublic,
            .calculateMD5, .calculateSHA256:
            return bluFiNegotiationRejected(code, context)
        default:
            return ProvisioningError(
                .bluFiProtocolError,
                "The device reported an error this tool does not know (\(code)).",
                hint: "Run the command again; if it repeats, report the device model and firmware.",
                detail: "device error \(code.rawValue)"
            )
        }
    }
}
