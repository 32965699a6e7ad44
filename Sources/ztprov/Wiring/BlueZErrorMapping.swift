import BlueZ
import DBus
import Provisioning
import Transports

/// The one table from what the BlueZ adapter throws to what the command line shows.
///
/// BlueZError stays in the adapter's vocabulary (D-Bus names and all); this is where it becomes a
/// stable code, an exit status and a hint. bluetoothd's own error goes into the detail.
extension ProvisioningError {
    /// Maps anything a BlueZ scope throws: our own errors pass through, cancellation becomes 130.
    static func fromBlueZ(_ error: any Error, while activity: String) -> ProvisioningError {
        if let error = error as? ProvisioningError { return error }
        if error is CancellationError { return .interruptedByUser }
        if error is DeadlineExceeded {
            return ProvisioningError(
                .timeout, "The overall time limit ran out while \(activity).",
                hint: "Allow more time with --timeout; " + bleHint, detail: "\(error)")
        }
        if let bus = (error as? BlueZError)?.dbusError ?? (error as? DBusError), bus.isNoHandshake {
            return .busNotAnswering(bus)
        }
        guard let error = error as? BlueZError else {
            return ProvisioningError(
                .bleLinkLost, "The BLE link failed while \(activity).", hint: bleHint, detail: "\(error)")
        }
        return bluez(error, while: activity)
    }

    private static func bluez(_ error: BlueZError, while activity: String) -> ProvisioningError {
        let detail = "\(error)"
        switch error {
        case .busLost where error.isNoSystemBus:
            return ProvisioningError(
                .bluetoothdAbsent, "The D-Bus system bus cannot be reached, so neither can bluetoothd.",
                hint: "Start D-Bus (`systemctl start dbus`) and bluetoothd; `ztprov doctor` checks the host.",
                detail: detail)
        case .bluetoothdNotRunning, .busLost:
            return ProvisioningError(
                .bluetoothdAbsent, "bluetoothd is not running on the system bus.",
                hint: "Start it with `systemctl start bluetooth`; `ztprov doctor` checks the host.", detail: detail)
        case .accessDenied, .notAuthorized:
            return ProvisioningError(
                .permissionDenied, "The system bus refused access to bluetoothd.",
                hint: "Run as root or add this user to the group the D-Bus policy allows (often `bluetooth`).",
                detail: detail)
        case .noAdapter:
            return ProvisioningError(
                .noBluetoothAdapter, "bluetoothd reports no Bluetooth adapter.",
                hint: "Plug in a Bluetooth adapter; `ztprov doctor` shows what the kernel sees.", detail: detail)
        case .adapterNotFound(let selection):
            return ProvisioningError(
                .bluetoothAdapterNotFound, "No Bluetooth adapter matches \(selection).",
                hint: "Give --adapter as hciN, the controller address, or slot:N; `bluetoothctl list` shows them.",
                detail: detail)
        case .adapterPoweredOff(let name):
            return ProvisioningError(
                .bluetoothAdapterPoweredOff, "Bluetooth adapter \(name) is powered off.",
                hint: "Run `bluetoothctl power on`.", detail: detail)
        case .notReady:
            return ProvisioningError(
                .bluetoothAdapterPoweredOff, "The Bluetooth adapter is not ready while \(activity).",
                hint: "Run `bluetoothctl power on`.", detail: detail)
        case .adapterBlocked(let name):
            return ProvisioningError(
                .bluetoothAdapterBlocked, "Bluetooth adapter \(name) is blocked by rfkill.",
                hint: "Run `rfkill unblock bluetooth`.", detail: detail)
        case .deviceNotFound:
            return ProvisioningError(
                .bleDeviceNotFound, "No provisionable device was found while scanning.",
                hint: "Put the device in provisioning mode (power-cycle it), keep it close, "
                    + "and check --device or --name-prefix.", detail: detail)
        case .connectionAborted:
            return ProvisioningError(
                .bleConnectAborted, "The BLE connection to the device was aborted while \(activity).",
                hint: "Move the adapter closer to the device (Wi-Fi on 2.4 GHz interferes), then run again.",
                detail: detail)
        case .servicesMissing:
            return ProvisioningError(
                .bleServicesMissing, "The device does not offer the GATT service the protocol needs.",
                hint: "Check that the device is in provisioning mode and --protocol names what it speaks; "
                    + "`bluetoothctl remove ADDRESS` clears a stale cache.", detail: detail)
        case .pairingFailed:
            return ProvisioningError(
                .blePairingFailed, "Pairing with the device failed while \(activity).",
                hint: "Put the device in pairing mode, or pair it with `bluetoothctl pair ADDRESS` first.",
                detail: detail)
        case .timedOut(let what):
            return ProvisioningError(
                .timeout, "The BLE step timed out: \(what).", hint: bleHint, detail: detail)
        case .linkLost, .notConnected, .doesNotExist:
            return ProvisioningError(
                .bleLinkLost, "The BLE link to the device dropped while \(activity).", hint: bleHint,
                detail: detail)
        default:
            return ProvisioningError(
                .bleRefused, "bluetoothd refused a step while \(activity).", hint: bleHint, detail: detail)
        }
    }

    private static let bleHint =
        "Keep the device powered and within a few metres of the adapter, then run the command again; "
        + "`ztprov doctor` checks the adapter."
}
