/// Host codes outside any one path: the doctor's checks (the BLE path's adapter and bluetoothd codes
/// serve it too) and the output stream itself.
extension ErrorCode {
    /// An rfkill switch blocks the Bluetooth or Wi-Fi radio.
    public static let hostRadioBlocked = ErrorCode("host.radio-blocked", .hostPrecondition)
    /// Stdout could not take the output (a full disk, a closed pipe); the command's result is lost.
    public static let outputFailed = ErrorCode("host.output-failed", .hostPrecondition)

    /// The host checks' codes, joined into ``catalogue``.
    static let hostCatalogue: [ErrorCode] = [.hostRadioBlocked, .outputFailed]
}
