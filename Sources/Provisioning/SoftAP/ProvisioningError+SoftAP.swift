import Protocomm
import Transports

/// How the host side of the SoftAP path reads to a person: joining and leaving the hotspot, and
/// the security the device asks for. Messages name hotspots and levels, never a secret.
extension ProvisioningError {
    /// A join that failed; the joiner has already put the host back on its previous network.
    static func softAPJoin(_ error: any Error, hotspot: SoftAPHotspot) -> ProvisioningError {
        let ssid = hotspot.ssid
        let detail = "\(error)"
        guard let kind = (error as? any WiFiJoinFailure)?.joinFailureKind else {
            return ProvisioningError(
                .softAPJoinFailed, "Could not join the hotspot \(ssid).",
                hint: "Run again with --verbose to see the network service's error.", detail: detail)
        }
        switch kind {
        case .passwordRejected:
            let given = !(hotspot.password?.isEmpty ?? true)
            return ProvisioningError(
                .hotspotPasswordRejected,
                given ? "The hotspot \(ssid) rejected the password." : "The hotspot \(ssid) needs a password.",
                hint: "Give the hotspot's password with --ap-password-file or --ap-password-env; "
                    + "Zhiting devices usually run an open hotspot.",
                detail: detail)
        case .networkNotFound:
            return ProvisioningError(
                .softAPHotspotNotFound, "No hotspot named \(ssid) is in range.",
                hint: "Put the device in provisioning mode, move closer, and check --ap-ssid "
                    + "(`nmcli device wifi list` shows what this host sees).",
                detail: detail)
        case .serviceUnavailable:
            return ProvisioningError(
                .networkServiceUnavailable, "NetworkManager is not running or cannot be reached.",
                hint: "Start it with `systemctl start NetworkManager`; ztprov joins hotspots through it.",
                detail: detail)
        case .busNotAnswering:
            return ProvisioningError(
                .busNotAnswering, "The D-Bus system bus accepted the connection but did not answer it in time.",
                hint: ErrorCode.busNotAnswering.hint, detail: detail)
        case .permissionDenied:
            return ProvisioningError(
                .permissionDenied, "Not allowed to control Wi-Fi through NetworkManager.",
                hint: "Add the user to the ztprov group (the package's polkit rule lets its members; from source, "
                    + "install the rule as the README says), then log in again; or run as root.",
                detail: detail)
        case .interfaceUnavailable:
            return ProvisioningError(
                .wifiInterfaceUnavailable, "No usable Wi-Fi interface to join the hotspot with.",
                hint: "Check `nmcli device` lists a managed Wi-Fi device, unblock it with `rfkill unblock wifi`, "
                    + "or name it with --wifi-interface.",
                detail: detail)
        case .associationFailed:
            return ProvisioningError(
                .softAPJoinFailed, "Could not join the hotspot \(ssid).",
                hint: "Move closer and disconnect phones from the device's hotspot (it takes few stations), "
                    + "then run again.",
                detail: detail)
        case .timedOut:
            return ProvisioningError(
                .softAPJoinTimeout, "Joining the hotspot \(ssid) did not finish in time.",
                hint: "Move closer to the device and run again.", detail: detail)
        case .restoreFailed:
            return .softAPRestoreFailed(error, hotspot: ssid, connection: nil)
        }
    }

    /// The run's deadline passed while the host was still joining.
    static func softAPJoinDeadline(hotspot: String) -> ProvisioningError {
        ProvisioningError(
            .softAPJoinTimeout, "The time limit ran out while joining the hotspot \(hotspot).",
            hint: "Run again with a longer --timeout, closer to the device.")
    }

    /// Leaving the hotspot did not bring the previous network back.
    ///
    /// - Parameter connection: the device's report when it had joined its network, so the
    ///   message can say that provisioning itself worked.
    static func softAPRestoreFailed(
        _ error: any Error, hotspot: String, connection: ProtocommDeviceConnection?
    ) -> ProvisioningError {
        let provisioned =
            connection.map { "The device joined \($0.ssid) as \($0.ipAddress), but the host" } ?? "The host"
        return ProvisioningError(
            .softAPRestoreFailed,
            "\(provisioned) did not get its previous network back after the hotspot \(hotspot).",
            hint: "Reconnect by hand: `nmcli connection show` lists the profiles, `nmcli connection up <name>` "
                + "brings one back.",
            detail: "\(error)")
    }

    /// The device runs a scheme whose credentials the request lacks.
    static func protocommCredentialsMissing(_ level: ProtocommSecurityLevel) -> ProvisioningError {
        switch level {
        case .security2:
            ProvisioningError(
                .protocommCredentialsMissing, "The device runs security 2, which needs an SRP username and password.",
                hint: "Give the SRP password with --pop-file or --pop-env, and --srp-username when it is not wifiprov.")
        case .security0, .security1:
            ProvisioningError(
                .protocommCredentialsMissing,
                "The device runs security 1 with a proof of possession, and none was given.",
                hint: "Give the PoP with --pop-file or --pop-env; it is printed on the device or in its manual.")
        }
    }

    /// `proto-ver` names a scheme this build does not implement.
    static func protocommUnsupportedSecurity(version: Int, on peer: ProtocommPeer) -> ProvisioningError {
        ProvisioningError(
            .protocommUnsupportedSecurity,
            "The device asks for protocomm security \(version), which ztprov does not speak.",
            hint: "Force a scheme the firmware also accepts with \(peer.securityOption) 0, 1 or 2.")
    }
}
