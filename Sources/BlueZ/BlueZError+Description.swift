/// One line per failure for `--verbose` output and logs: what happened, the D-Bus error where there is one,
/// and what to try where the fix is known.
extension BlueZError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .bluetoothdNotRunning(let error):
            "bluetoothd is not running (\(error)); start it with `systemctl start bluetooth`"
        case .busLost(let error): "the D-Bus connection was lost (\(error))"
        case .accessDenied(let error): "the D-Bus policy refused the call (\(error)); run as root or adjust the policy"
        case .noAdapter: "bluetoothd reports no Bluetooth adapter"
        case .adapterNotFound(let selection): "no Bluetooth adapter matches \(selection)"
        case .adapterPoweredOff(let name): "Bluetooth adapter \(name) is powered off; run `bluetoothctl power on`"
        case .adapterBlocked(let name): "Bluetooth adapter \(name) is blocked by rfkill; run `rfkill unblock bluetooth`"
        case .deviceNotFound: "no matching device was found while scanning"
        case .notReady(let error): "the adapter is not ready (\(error)); is it powered?"
        case .connectionAborted(let error):
            "the connection attempt was aborted locally (\(error)); often radio interference or Wi-Fi coexistence"
        case .failed(_, let error), .notPermitted(let error), .notAuthorized(let error), .notSupported(let error),
            .notConnected(let error), .alreadyConnected(let error), .invalidArguments(let error), .other(let error):
            "BlueZ refused: \(error)"
        case .pairingFailed(let error): "pairing with the device failed (\(error))"
        case .inProgress(let error): "an earlier operation is still pending in BlueZ (\(error))"
        case .doesNotExist(let error): "the object no longer exists in BlueZ (\(error)); scan again"
        case .timedOut(let what): "timed out: \(what)"
        case .linkLost(let what): "the Bluetooth link was lost: \(what)"
        case .servicesMissing(let what): "the device lacks the expected GATT services: \(what)"
        }
    }
}
