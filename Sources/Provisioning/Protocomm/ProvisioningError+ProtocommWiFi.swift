import Protocomm
import Transports

/// How the device's own trouble with the target network reads to a person, with the device's reason.
extension ProvisioningError {
    /// The device reported that it gave up joining `ssid`.
    ///
    /// - Parameter wasReset: whether `prov-ctrl` reset made the device ready for another try, which
    ///   changes what the person has to do next.
    static func protocommDeviceWiFiFailed(_ status: ProtocommWiFiStatus, ssid: String, wasReset: Bool)
        -> ProvisioningError
    {
        let retry =
            wasReset
            ? "The device is ready for another try."
            : "Then power-cycle the device into provisioning mode and run again."
        switch status {
        case .failed(.authenticationError):
            return ProvisioningError(
                .protocommWiFiWrongPassword,
                "The device could not join \(ssid): authentication error (wrong password).",
                hint: "Check the Wi-Fi password source (--password-file or --password-env). " + retry)
        case .failed(.networkNotFound):
            return ProvisioningError(
                .protocommWiFiNotFound, "The device could not find the network \(ssid).",
                hint: "Check --ssid (names are case-sensitive) and that the network is 2.4 GHz and in range of "
                    + "the device. " + retry)
        case .failed(let reason):
            return .protocommWiFiJoinFailed(ssid: ssid, reason: reason.description, retry: retry)
        case .disconnected:
            return .protocommWiFiJoinFailed(ssid: ssid, reason: "disconnected", retry: retry)
        case .unrecognized(let state):
            return .protocommWiFiJoinFailed(ssid: ssid, reason: "station state \(state)", retry: retry)
        case .connecting, .connected:
            return .protocommWiFiJoinFailed(ssid: ssid, reason: "no failure reported", retry: retry)
        }
    }

    private static func protocommWiFiJoinFailed(ssid: String, reason: String, retry: String) -> ProvisioningError {
        ProvisioningError(
            .protocommWiFiJoinFailed, "The device could not join \(ssid): \(reason).",
            hint: "Check the network is 2.4 GHz, in range of the device and not filtering by MAC address. " + retry)
    }

    /// The device was still joining when the connect limit or the run's deadline ran out.
    static func protocommWiFiConnectTimeout(ssid: String, limit: StepLimit.Ending) -> ProvisioningError {
        ProvisioningError(
            .protocommWiFiConnectTimeout, "The device was still joining \(ssid)\(limit.endingText).",
            hint: "Check the network is 2.4 GHz and in range of the device; it keeps trying, so "
                + "`ztprov discover` may find it on the network later.")
    }

    /// Contact was lost after the device got its credentials, so whether it joined is unknown.
    static func protocommOutcomeUnknown(ssid: String, detail: String?, on peer: ProtocommPeer) -> ProvisioningError {
        let lookForIt =
            "look for it with `ztprov discover` on \(ssid), or put it back in provisioning mode and run again."
        let why =
            switch peer {
            case .hotspot: "The device's hotspot moves to the network's channel as it joins: "
            case .ble: "A device often ends its BLE provisioning service as it joins: "
            }
        return ProvisioningError(
            .protocommOutcomeUnknown,
            "Lost contact with the device after it got the credentials for \(ssid); it may have joined.",
            hint: why + lookForIt, detail: detail)
    }

    /// "Set config" or "apply" answered with a status other than `Success`.
    static func protocommConfigRejected(_ status: ProtocommStatus, applying: Bool) -> ProvisioningError {
        if applying, status == .internalError {
            return ProvisioningError(
                .protocommConfigRejected,
                "The device refused to apply the Wi-Fi settings (InternalError): it already holds credentials "
                    + "from an earlier attempt.",
                hint: "Power-cycle the device into provisioning mode and run again.")
        }
        return ProvisioningError(
            .protocommConfigRejected, "The device refused the Wi-Fi settings (\(status)).",
            hint: "Check --ssid and the password length; --verbose shows the device's status.")
    }
}
