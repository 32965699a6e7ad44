/// The codes of the BLE path: the link, the BluFi session and the device's Wi-Fi join.
///
/// The sequence mismatch and the aborted connect already live in the shared catalogue; these add
/// the rest. The lead joins ``bleCatalogue`` into ``catalogue`` when the branches meet.
extension ErrorCode {
    // MARK: Link failures (5)
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

    /// The codes above, for the catalogue's uniqueness test.
    public static let bleCatalogue: [ErrorCode] = [
        .bleLinkLost, .bluFiProtocolError,
        .bluFiNegotiationFailed,
        .bluFiWiFiWrongPassword, .bluFiWiFiNotFound, .bluFiWiFiJoinFailed, .bluFiWiFiJoinTimeout, .bluFiWiFiScanFailed,
    ]
}
