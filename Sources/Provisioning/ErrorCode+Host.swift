/// The codes of `ztprov doctor`'s host checks that the shared catalogue does not already hold.
///
/// The ble helper may map BlueZ errors to codes of its own; the lead keeps one spelling per fault.
extension ErrorCode {
    /// The kernel has Bluetooth, but no controller is plugged in or enabled.
    public static let hostNoBluetoothController = ErrorCode("host.no-bluetooth-controller", .hostPrecondition)
    /// Nothing owns `org.bluez` on the system bus.
    public static let hostBluetoothdNotRunning = ErrorCode("host.bluetoothd-not-running", .hostPrecondition)
    /// bluetoothd knows adapters, but none is powered.
    public static let hostAdapterPoweredOff = ErrorCode("host.adapter-powered-off", .hostPrecondition)
    /// An rfkill switch blocks the Bluetooth or Wi-Fi radio.
    public static let hostRadioBlocked = ErrorCode("host.radio-blocked", .hostPrecondition)

    /// The host checks' codes, joined into ``catalogue``.
    static let hostCatalogue: [ErrorCode] = [
        .hostNoBluetoothController, .hostBluetoothdNotRunning, .hostAdapterPoweredOff, .hostRadioBlocked,
    ]
}
