import BluFi

/// The device's Wi-Fi join failing (exit 7) and replies that never came (exit 9).
extension ProvisioningError {
    static func bluFiJoinFailed(_ report: BluFiWiFiReport, ssid: String?) -> ProvisioningError {
        let network = ssid.map { "\"\($0)\"" } ?? "the network"
        let reason = report.endReason ?? .connectionFailed
        var because = "\(reason.explanation), reason \(reason.rawValue)"
        if let rssi = report.rssi, rssi != -128 { because += ", signal \(rssi) dBm" }
        let detail = "WIFI_REPORT: \(report.withoutPasswords)"
        if reason.suggestsWrongPassword {
            return ProvisioningError(
                .bluFiWiFiWrongPassword,
                "The device could not join \(network): the access point rejected the password (\(because)).",
                hint: "Check the Wi-Fi password (letters are case-sensitive) and run the command again.",
                detail: detail
            )
        }
        if reason.suggestsNetworkNotFound {
            return ProvisioningError(
                .bluFiWiFiNotFound,
                "The device could not find \(network) (\(because)).",
                hint: "Check the SSID and that it is a 2.4 GHz network in range of the device; "
                    + "--list-networks shows what the device sees.",
                detail: detail
            )
        }
        return ProvisioningError(
            .bluFiWiFiJoinFailed,
            "The device could not join \(network) (\(because)).",
            hint: "Move the device closer to the access point and check the router accepts new clients; then retry.",
            detail: detail
        )
    }

    static func bluFiTimedOut(_ reply: BluFiAwaitedReply, _ context: BluFiFailureContext) -> ProvisioningError {
        let within = context.waited.map { " within \(secondsText($0))" } ?? ""
        let limit = context.overallLimitReached ? " before the overall time limit" : within
        let network = context.ssid.map { "\"\($0)\"" } ?? "the network"
        let (code, what, hint): (ErrorCode, String, String) =
            switch reply {
            case .wifiConnection:
                (
                    .bluFiWiFiJoinTimeout, "did not report joining \(network)\(limit); it was still trying",
                    "Check the access point hands out addresses (DHCP) and is in range, or allow more time with --timeout."
                )
            case .version: (.timeout, "did not answer GET_VERSION\(limit)", retryHint)
            case .devicePublicKey:
                (
                    .timeout, "did not answer the \(context.scheme.displayName) key exchange\(limit)",
                    "V2 on ESP32-C2 or C61 can take a minute: allow more time with --timeout, or force --security v1."
                )
            case .acknowledgement: (.timeout, "did not acknowledge the Wi-Fi mode\(limit)", retryHint)
            case .softAPStatus: (.timeout, "did not report its access point running\(limit)", retryHint)
            case .wifiStatus: (.timeout, "did not answer the Wi-Fi status request\(limit)", retryHint)
            case .wifiList: (.timeout, "did not finish its network scan\(limit)", retryHint)
            case .deviceID, .optionalDeviceID:
                (
                    .timeout, "joined \(network) but did not send its device ID\(limit)",
                    "Firmware that sends no ID cannot be handed off automatically: "
                        + "find the ID with `ztprov discover`, then run `ztprov handoff --device-id`."
                )
            }
        return ProvisioningError(code, "The device \(what).", hint: hint)
    }

    private static let retryHint = "Run the command again; power-cycle the device if it keeps happening."
}

extension BluFiConnectionEndReason {
    /// ESP-IDF's meaning of the reason, in words.
    var explanation: String {
        switch self {
        case .fourWayHandshakeTimeout, .handshakeTimeout: "the WPA handshake timed out"
        case .authenticationFailed: "authentication failed"
        case .authenticationExpired: "authentication expired"
        case .noAPFound: "no access point with that name answered"
        case .noAPWithCompatibleSecurity: "no access point with compatible security"
        case .noAPInAuthModeThreshold: "no access point meets the required security"
        case .noAPInRSSIThreshold: "no access point with a strong enough signal"
        case .associationFailed: "association failed"
        case .leftOnRequest: "the station was told to leave"
        default: "the connection failed"
        }
    }
}
