/// The codes of the BLE path: the link, the BluFi session and the device's Wi-Fi join.
///
/// The sequence mismatch and the aborted connect already live in the shared catalogue; these add
/// the rest. The lead joins ``bleCatalogue`` into ``catalogue`` when the branches meet.
extension ErrorCode {
    // MARK: Host preconditions (3)
    /// bluetoothd is not on the system bus.
    public static let bluetoothdAbsent = ErrorCode("host.bluetoothd-absent", .hostPrecondition)
    /// bluetoothd exports no adapter at all.
    public static let noBluetoothAdapter = ErrorCode("host.no-adapter", .hostPrecondition)
    /// No adapter matches `--adapter`.
    public static let bluetoothAdapterNotFound = ErrorCode("host.adapter-not-found", .hostPrecondition)
    /// The adapter is off.
    public static let bluetoothAdapterPoweredOff = ErrorCode("host.adapter-powered-off", .hostPrecondition)
    /// rfkill blocks the adapter.
    public static let bluetoothAdapterBlocked = ErrorCode("host.adapter-blocked", .hostPrecondition)

    // MARK: Device not found (4)
    /// No provisionable device showed up while scanning.
    public static let bleDeviceNotFound = ErrorCode("ble.device-not-found", .deviceNotFound)

    // MARK: Link failures (5)
    /// The device resolved its services but not BluFi's (wrong device or a stale cache).
    public static let bleServicesMissing = ErrorCode("ble.services-missing", .linkFailure)
    /// bluetoothd refused an operation the flow needs, for a reason it named.
    public static let bleRefused = ErrorCode("ble.refused", .linkFailure)
    /// The BLE link dropped or failed mid-session.
    public static let bleLinkLost = ErrorCode("ble.link-lost", .linkFailure)
    /// A frame the other side cannot use: malformed, unexpected, or refused by the device.
    public static let bluFiProtocolError = ErrorCode("blufi.protocol-error", .linkFailure)

    // MARK: Authentication (6)
    /// The key exchange failed or the two sides derived different keys.
    public static let bluFiNegotiationFailed = ErrorCode("blufi.negotiation-failed", .authenticationFailed)

    // MARK: The device's Wi-Fi (7)
    /// The access point rejected the password.
    public static let bluFiWiFiWrongPassword = ErrorCode("blufi.wifi-wrong-password", .wifiJoinFailed)
    /// No (compatible) access point with the SSID answered.
    public static let bluFiWiFiNotFound = ErrorCode("blufi.wifi-not-found", .wifiJoinFailed)
    /// The join failed for another reason the device named.
    public static let bluFiWiFiJoinFailed = ErrorCode("blufi.wifi-join-failed", .wifiJoinFailed)
    /// The device was still trying when the join's time ran out.
    public static let bluFiWiFiJoinTimeout = ErrorCode("blufi.wifi-join-timeout", .wifiJoinFailed)
    /// The device could not start a Wi-Fi scan.
    public static let bluFiWiFiScanFailed = ErrorCode("blufi.wifi-scan-failed", .wifiJoinFailed)

    // MARK: Hand-off (8)
    /// The device ID the device sent over BluFi is not the 12 hex digits the LAN protocol needs.
    public static let bluFiUnusableDeviceID = ErrorCode("blufi.unusable-device-id", .handoffFailed)

    /// The codes above, for the catalogue's uniqueness test.
    public static let bleCatalogue: [ErrorCode] = [
        .bluetoothdAbsent, .noBluetoothAdapter, .bluetoothAdapterNotFound, .bluetoothAdapterPoweredOff,
        .bluetoothAdapterBlocked, .bleDeviceNotFound, .bleServicesMissing, .bleRefused, .bluFiUnusableDeviceID,
        .bleLinkLost, .bluFiProtocolError,
        .bluFiNegotiationFailed,
        .bluFiWiFiWrongPassword, .bluFiWiFiNotFound, .bluFiWiFiJoinFailed, .bluFiWiFiJoinTimeout, .bluFiWiFiScanFailed,
    ]
}
