extension ErrorCode {
    /// What a person can do about this kind of failure in general.
    ///
    /// A ``ProvisioningError`` carries a hint written for its own circumstances; this one speaks for the
    /// code as a whole, for places that show a code without a single failure behind it: the shift
    /// report's failure Pareto, documentation, a test that every code can be acted on.
    public var hint: String {
        switch self {
        case .invalidOption: "Fix the option as the message says; `ztprov <command> --help` lists the options."
        case .improvNotSupported:
            "Leave out the option the device does not support; `ztprov scan` shows what it supports."
        case .secretMissing: "Give the secret with its --…-file or --…-env option, or run on a terminal to be asked."
        case .secretUnreadable: "Point the --…-file option at a readable regular file that holds only the secret."
        case .secretEmpty:
            "Put the secret on the first line of its file or variable; for an open network use --open-network."
        case .secretInvalid: "Write the secret as UTF-8 text (no NUL bytes, at most 4096 bytes) on the first line."
        case .recordsInvalidLocation: "Give --db a file path, sqlite:PATH or a postgres:// URL."
        case .batchBadInput: "Fix the line; `ztprov batch --help` lists the accepted line shapes."
        case .softAPInvalidSSID: "Give an SSID of 1 to 32 bytes."
        case .softAPInvalidPassphrase: "Give a WPA passphrase of 8 to 63 bytes, or 64 hex digits, or --open-network."
        case .softAPInvalidHotspotPassword: "Give the hotspot password printed on the device (8 to 63 bytes)."
        case .bleSeveralDevices:
            "Name the device with --device, narrow with --name-prefix, pass --pick, or run on a terminal to choose."
        case .protocommCredentialsMissing:
            "Give the PoP (security 1) or SRP password (security 2) with --pop-file or --pop-env."
        case .kernelBluetoothMissing:
            "Use a kernel with Bluetooth (CONFIG_BT) and load the controller's driver; see `ztprov doctor`."
        case .permissionDenied: "Run as root, or add the user to the ztprov group and install the README's polkit rule."
        case .hostRadioBlocked: "Unblock the radio with `rfkill unblock bluetooth` or `rfkill unblock wifi`."
        case .bluetoothdAbsent: "Start bluetoothd: `systemctl start bluetooth` (install Debian's bluez package first)."
        case .noBluetoothAdapter: "Plug in a Bluetooth controller and check `ztprov doctor` lists it."
        case .bluetoothAdapterNotFound: "Name an adapter `ztprov doctor` lists: hciN, its address, or slot:N."
        case .bluetoothAdapterPoweredOff: "Power the adapter on: `bluetoothctl power on`."
        case .bluetoothAdapterBlocked: "Unblock it: `rfkill unblock bluetooth`, then `bluetoothctl power on`."
        case .networkServiceUnavailable: "Start NetworkManager: `systemctl start NetworkManager`."
        case .wifiInterfaceUnavailable: "Check `nmcli device` lists a managed Wi-Fi device; `rfkill unblock wifi`."
        case .softAPInterfaceUnusable: "Name a Wi-Fi interface NetworkManager manages with --wifi-interface."
        case .lanInterfaceNotFound: "Name an interface `ip link` lists with --lan-interface."
        case .lanPortInUse: "Stop the other program on UDP port 54321 (often a Zhiting hub app) and run again."
        case .lanSocketFailed: "Check the LAN interface is up and has an IPv4 address."
        case .recordsUnavailable: "Check the --db path or URL, its permissions, and that the database server runs."
        case .recordsIncompatibleSchema:
            "Point --db at a ztprov records database, or use a ztprov as new as its schema."
        case .recordsWriteFailed: "Free disk space or fix the database; the attempt was not recorded."
        case .outputFailed: "Check where stdout goes (a full disk, a pipe whose reader stopped) and run again."
        case .recordsReadFailed:
            "Check the database is readable and not damaged (`sqlite3 FILE 'PRAGMA integrity_check'`)."
        case .improvAlreadyProvisioned: "Reset the device's Wi-Fi settings as its manual says, then provision it again."
        case .bleDeviceNotFound:
            "Put the device in provisioning mode, move closer, and check --device or --name-prefix."
        case .softAPHotspotNotFound: "Put the device in provisioning mode, move closer, and check --ap-ssid."
        case .lanNoReply: "Check the host and the device are on the same LAN and --lan-interface is that LAN."
        case .lanDeviceNotFound: "Check the device joined the Wi-Fi (its LED) and is on the --lan-interface LAN."
        case .bleConnectAborted: "Move closer, power-cycle the device, and run again."
        case .bleServicesMissing:
            "Check it is the right device; clear bluetoothd's cache with `bluetoothctl remove ADDRESS`."
        case .bleRefused: "Run again with --verbose to see what bluetoothd refused."
        case .bleLinkLost: "Move closer and run again; a device that keeps dropping may need a power cycle."
        case .bluFiSequenceMismatch: "Run again; if it repeats, power-cycle the device."
        case .improvRejected: "Check the value the device refused; power-cycle the device if it repeats."
        case .improvProtocolError: "Run again with --verbose; report the device's firmware if it repeats."
        case .bluFiProtocolError: "Run again with --verbose; the firmware may speak another BluFi dialect."
        case .softAPJoinFailed: "Move closer and run again; --verbose shows NetworkManager's reason."
        case .softAPRestoreFailed: "Reconnect by hand: `nmcli connection up <name>` for the previous connection."
        case .softAPDeviceUnreachable: "Check --device-address and that the device's provisioning server runs."
        case .protocommEndpointMissing: "The firmware lacks a provisioning endpoint; check its provisioning scheme."
        case .protocommConnectionClosed: "Move closer and run again; the device closed the connection."
        case .protocommProtocolError: "Run again with --verbose; the firmware may speak another protocomm version."
        case .protocommOutcomeUnknown: "Check on the LAN whether the device joined (`ztprov discover`)."
        case .lanSendFailed: "Check the LAN interface is up and the network is reachable."
        case .scUnreachable: "Check the host's internet connection and --sc-url."
        case .bluFiNegotiationFailed: "Force the scheme the firmware uses with --security v1, v2 or none."
        case .wrongPoP: "Give the proof of possession printed on the device or in its manual."
        case .blePairingFailed: "Put the device in pairing mode, or pair it with `bluetoothctl pair ADDRESS` first."
        case .securityBelowMinimum:
            "Give the device's PoP, flash firmware with stronger provisioning security, or lower --min-security."
        case .protocommSessionRejected:
            "Check the PoP or SRP credentials and the forced security (softap --security, ble --sec-ver)."
        case .protocommHandshakeFailed: "Check the PoP or SRP credentials; power-cycle the device and run again."
        case .protocommUnsupportedSecurity:
            "Force a scheme the firmware accepts: 0, 1 or 2 with softap --security or ble --sec-ver."
        case .hotspotPasswordRejected:
            "Give the hotspot password printed on the device with --ap-password-file or --ap-password-env."
        case .scTokenRejected: "Get a fresh access token from the SC and run again."
        case .bluFiWiFiWrongPassword, .protocommWiFiWrongPassword: "Check the Wi-Fi password and run again."
        case .bluFiWiFiNotFound, .protocommWiFiNotFound:
            "Check the SSID and that the network is 2.4 GHz and in range of the device."
        case .bluFiWiFiJoinFailed, .protocommWiFiJoinFailed: "Check the network accepts new clients and run again."
        case .bluFiWiFiJoinTimeout: "Move the device closer to the access point, or give a longer --timeout."
        case .improvWiFiUnableToConnect: "Check the Wi-Fi password and that the 2.4 GHz network reaches the device."
        case .bluFiWiFiScanFailed: "Run again; the device could not scan while busy."
        case .networkNotHeard:
            "Check the SSID and that the network is 2.4 GHz and in range; pass --hidden if it hides its name."
        case .networkPasswordRequired: "Give the network's password with --password-file or --password-env."
        case .networkIsOpen: "Run again with --open-network instead of a password."
        case .networkEnterprise: "Choose a WPA-Personal network; an 802.1X network cannot be provisioned this way."
        case .wifiPasswordCharacters: "Remove the control characters (often a Windows line ending) from the password."
        case .protocommConfigRejected: "Check the SSID and password lengths; the device refused the settings."
        case .threadInvalidDataset:
            "Put the hex line of `ot-ctl dataset active -x` (from the border router) alone in the dataset file."
        case .threadDatasetRejected: "Export the active dataset from the border router again and run again."
        case .threadNetworkNotFound: "Check the border router is up and the device is in range of the Thread network."
        case .threadAttachFailed: "Put the device back in provisioning mode and run again."
        case .threadAttachTimeout: "Move the device closer to a Thread router, or give a longer --timeout."
        case .bluFiUnusableDeviceID: "The firmware sent an unusable device ID; give --device-id to `ztprov handoff`."
        case .lanBadReply: "Check the device's firmware version; run again with --verbose."
        case .handoffNoToken: "Check the device is not already bound to another area; reset it and run again."
        case .handoffNoInfo: "Run again; the device did not describe itself."
        case .handoffNotConfirmed: "Run `ztprov handoff` again; check the device reaches the server."
        case .handoffServerMismatch: "Run `ztprov handoff` again; the device echoed another server."
        case .handoffRejected: "Check --area-id and the access token, then run `ztprov handoff` again."
        case .handoffTargetIsHub: "Give the device's own ID; the target is a Smart Assistant hub."
        case .scHTTPError: "Check --sc-url and the SC's status; run again later."
        case .scBadResponse: "Check --sc-url points at the SC; run again with --verbose."
        case .improvAuthorizationTimeout:
            "Press the device's button when asked, or give --authorization-timeout more time."
        case .timeout: "Run again with a longer --timeout, closer to the device."
        case .softAPJoinTimeout: "Move closer to the device and run again, or give a longer --timeout."
        case .protocommDeviceTimeout: "Move closer and run again; the device stopped answering."
        case .protocommWiFiConnectTimeout: "Move the device closer to the access point, or give a longer --timeout."
        case .scTimeout: "Check the host's internet connection and run again."
        case .batchIncomplete: "Run `ztprov report --final-only` for the reasons; rerunning retries only those units."
        case .hangUp:
            "Run long commands under tmux or screen so a dropped session does not end them; cleanup already ran."
        case .interrupted: "Run the command again when ready; cleanup already ran."
        case .terminated: "Something on the host stopped ztprov; run the command again when ready, cleanup already ran."
        case .batchClaimLost:
            "Check the station's link to the database; another station took the unit, its records say how it ended."
        case .batchUnknownLane:
            "Pin the unit to one of the batch's lanes (--adapters or --wifi-interfaces), or leave its adapter column empty."
        case .busNotAnswering:
            "Check the D-Bus daemon (`systemctl status dbus`) and DBUS_SYSTEM_BUS_ADDRESS; restart dbus if it hangs."
        case .reportCannotServe:
            "Choose a free port (`ss -ltn` lists the taken ones), above 1023 unless root, on an address of this host."
        }
    }
}
