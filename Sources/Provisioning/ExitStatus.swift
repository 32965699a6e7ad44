/// The process exit statuses of the command-line contract; scripts and the factory line branch on them.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// Bad or missing option, invalid SSID or password length.
    case usage = 2
    /// No Bluetooth in the kernel, no adapter, bluetoothd or NetworkManager absent, permission denied.
    case hostPrecondition = 3
    /// Scan, access point or LAN discovery found nothing in time.
    case deviceNotFound = 4
    /// BLE connection lost or refused, hotspot join failed, socket closed.
    case linkFailure = 5
    /// Proof of possession, key negotiation or hotspot password rejected.
    case authenticationFailed = 6
    /// The device could not join the target Wi-Fi.
    case wifiJoinFailed = 7
    /// The LAN hand-off failed or was not confirmed.
    case handoffFailed = 8
    /// A deadline passed that no more specific status covers.
    case timeout = 9
    /// `ztprov batch` ran to its end but some units were not provisioned.
    case batchIncomplete = 10
    /// The terminal or the session went away (SIGHUP, 128 + 1); cleanup still ran.
    case hungUp = 129
    /// Ctrl-C; cleanup still ran.
    case interrupted = 130
    /// SIGTERM (128 + 15); cleanup still ran.
    case terminated = 143
}
