/// The codes of the BLE path: the link, the BluFi session and the device's Wi-Fi join.
///
/// The sequence mismatch and the aborted connect already live in the shared catalogue; these add
/// the rest. The lead joins ``bleCatalogue`` into ``catalogue`` when the branches meet.
extension ErrorCode {
    // MARK: Link failures (5)
    public static let bleLinkLost = ErrorCode("ble.link-lost", .linkFailure)
    public static let bluFiProtocolError = ErrorCode("blufi.protocol-error", .linkFailure)

    // MARK: Authentication (6)
    public static let bluFiNegotiationFailed = ErrorCode("blufi.negotiation-failed", .authenticationFailed)

    // MARK: The device's Wi-Fi (7)
    public static let bluFiWiFiWrongPassword = ErrorCode("blufi.wifi-wrong-password", .wifiJoinFailed)
    public static let bluFiWiFiNotFound = ErrorCode("blufi.wifi-not-found", .wifiJoinFailed)
    public static let bluFiWiFiJoinFailed = ErrorCode("blufi.wifi-join-failed", .wifiJoinFailed)
    public static let bluFiWiFiJoinTimeout = ErrorCode("blufi.wifi-join-timeout", .wifiJoinFailed)
    public static let bluFiWiFiScanFailed = ErrorCode("blufi.wifi-scan-failed", .wifiJoinFailed)

    /// The codes above, for the catalogue's uniqueness test.
    public static let bleCatalogue: [ErrorCode] = [
        .bleLinkLost, .bluFiProtocolError,
        .bluFiNegotiationFailed,
        .bluFiWiFiWrongPassword, .bluFiWiFiNotFound, .bluFiWiFiJoinFailed, .bluFiWiFiJoinTimeout, .bluFiWiFiScanFailed,
    ]
}
