/// The codes the SoftAP path adds to the catalogue, grouped by exit status like the shared list.
///
/// It reuses ``wrongPoP`` (`softap.wrong-pop`), ``hotspotPasswordRejected`` (`nm.no-secrets`) and
/// ``permissionDenied`` from the shared catalogue.
extension ErrorCode {
    // MARK: Usage (2)
    public static let softAPInvalidSSID = ErrorCode("softap.invalid-ssid", .usage)
    public static let softAPInvalidPassphrase = ErrorCode("softap.invalid-passphrase", .usage)
    public static let softAPInvalidHotspotPassword = ErrorCode("softap.invalid-hotspot-password", .usage)
    public static let protocommCredentialsMissing = ErrorCode("softap.credentials-missing", .usage)

    // MARK: Host preconditions (3)
    public static let networkServiceUnavailable = ErrorCode("nm.unavailable", .hostPrecondition)
    public static let wifiInterfaceUnavailable = ErrorCode("nm.no-wifi-device", .hostPrecondition)
    public static let softAPInterfaceUnusable = ErrorCode("softap.interface-unusable", .hostPrecondition)

    // MARK: Device not found (4)
    public static let softAPHotspotNotFound = ErrorCode("softap.hotspot-not-found", .deviceNotFound)

    // MARK: Link failures (5)
    public static let softAPJoinFailed = ErrorCode("softap.join-failed", .linkFailure)
    public static let softAPRestoreFailed = ErrorCode("softap.restore-failed", .linkFailure)
    public static let softAPDeviceUnreachable = ErrorCode("softap.device-unreachable", .linkFailure)
    public static let softAPEndpointMissing = ErrorCode("softap.endpoint-missing", .linkFailure)
    public static let softAPConnectionClosed = ErrorCode("softap.connection-closed", .linkFailure)
    public static let softAPProtocolError = ErrorCode("softap.protocol-error", .linkFailure)
    public static let protocommOutcomeUnknown = ErrorCode("softap.outcome-unknown", .linkFailure)

    // MARK: Authentication (6)
    public static let softAPSessionRejected = ErrorCode("softap.session-rejected", .authenticationFailed)
    public static let softAPHandshakeFailed = ErrorCode("softap.handshake-failed", .authenticationFailed)
    public static let protocommUnsupportedSecurity = ErrorCode("softap.unsupported-security", .authenticationFailed)

    // MARK: The device could not join the target Wi-Fi (7)
    public static let softAPWiFiWrongPassword = ErrorCode("softap.wifi-wrong-password", .wifiJoinFailed)
    public static let softAPWiFiNotFound = ErrorCode("softap.wifi-not-found", .wifiJoinFailed)
    public static let protocommWiFiJoinFailed = ErrorCode("softap.wifi-join-failed", .wifiJoinFailed)
    public static let protocommConfigRejected = ErrorCode("softap.config-rejected", .wifiJoinFailed)

    // MARK: Timeouts (9)
    public static let softAPJoinTimeout = ErrorCode("softap.join-timeout", .timeout)
    public static let protocommDeviceTimeout = ErrorCode("softap.device-timeout", .timeout)
    public static let protocommWiFiConnectTimeout = ErrorCode("softap.wifi-connect-timeout", .timeout)

    /// Every code the SoftAP path defines; the lead joins it with ``catalogue`` on merge.
    public static let softAPCatalogue: [ErrorCode] = [
        .softAPInvalidSSID, .softAPInvalidPassphrase, .softAPInvalidHotspotPassword, .protocommCredentialsMissing,
        .networkServiceUnavailable, .wifiInterfaceUnavailable, .softAPInterfaceUnusable,
        .softAPHotspotNotFound,
        .softAPJoinFailed, .softAPRestoreFailed, .softAPDeviceUnreachable, .softAPEndpointMissing,
        .softAPConnectionClosed, .softAPProtocolError, .protocommOutcomeUnknown,
        .softAPSessionRejected, .softAPHandshakeFailed, .protocommUnsupportedSecurity,
        .softAPWiFiWrongPassword, .softAPWiFiNotFound, .protocommWiFiJoinFailed, .protocommConfigRejected,
        .softAPJoinTimeout, .protocommDeviceTimeout, .protocommWiFiConnectTimeout,
    ]
}
