/// Host codes that only `ztprov doctor` reports; the BLE path's adapter and bluetoothd codes serve it too.
extension ErrorCode {
    /// An rfkill switch blocks the Bluetooth or Wi-Fi radio.
    public static let hostRadioBlocked = ErrorCode("host.radio-blocked", .hostPrecondition)

    /// The host checks' codes, joined into ``catalogue``.
    static let hostCatalogue: [ErrorCode] = [.hostRadioBlocked]
}
