extension ErrorCode {
    /// The process exit status the code implies, per the command-line contract's table.
    public var exitStatus: ExitStatus {
        switch self {
        case .invalidOption, .improvNotSupported, .secretMissing, .secretUnreadable, .secretEmpty, .secretInvalid,
            .recordsInvalidLocation,
            .batchBadInput, .softAPInvalidSSID,
            .softAPInvalidPassphrase, .softAPInvalidHotspotPassword, .softAPCredentialsMissing, .threadInvalidDataset:
            .usage
        case .kernelBluetoothMissing, .permissionDenied, .hostRadioBlocked, .bluetoothdAbsent, .noBluetoothAdapter,
            .bluetoothAdapterNotFound, .bluetoothAdapterPoweredOff, .bluetoothAdapterBlocked,
            .networkServiceUnavailable, .wifiInterfaceUnavailable, .softAPInterfaceUnusable, .lanInterfaceNotFound,
            .lanPortInUse, .lanSocketFailed, .recordsUnavailable, .recordsIncompatibleSchema, .recordsWriteFailed,
            .recordsReadFailed, .outputFailed:
            .hostPrecondition
        case .bleDeviceNotFound, .improvAlreadyProvisioned, .softAPHotspotNotFound, .lanNoReply, .lanDeviceNotFound:
            .deviceNotFound
        case .bleConnectAborted, .bleServicesMissing, .bleRefused, .bleLinkLost, .bluFiSequenceMismatch,
            .bluFiProtocolError, .improvRejected, .improvProtocolError, .softAPJoinFailed, .softAPRestoreFailed,
            .softAPDeviceUnreachable,
            .softAPEndpointMissing, .softAPConnectionClosed, .softAPProtocolError, .softAPOutcomeUnknown,
            .lanSendFailed, .scUnreachable:
            .linkFailure
        case .bluFiNegotiationFailed, .wrongPoP, .softAPSessionRejected, .softAPHandshakeFailed,
            .softAPUnsupportedSecurity, .hotspotPasswordRejected, .scTokenRejected,
            .blePairingFailed:
            .authenticationFailed
        case .bluFiWiFiWrongPassword, .bluFiWiFiNotFound, .bluFiWiFiJoinFailed, .bluFiWiFiScanFailed,
            .improvWiFiUnableToConnect, .softAPWiFiWrongPassword, .softAPWiFiNotFound,
            .softAPWiFiJoinFailed,
            .softAPConfigRejected, .threadDatasetRejected, .threadNetworkNotFound, .threadAttachFailed:
            .wifiJoinFailed
        case .bluFiUnusableDeviceID, .lanBadReply, .handoffNoToken, .handoffNoInfo, .handoffNotConfirmed,
            .handoffServerMismatch, .handoffRejected, .handoffTargetIsHub, .scHTTPError, .scBadResponse:
            .handoffFailed
        // A device still joining when time ran out is a timeout on every path, BluFi and SoftAP alike.
        case .timeout, .improvAuthorizationTimeout, .softAPJoinTimeout, .softAPDeviceTimeout, .softAPWiFiConnectTimeout,
            .bluFiWiFiJoinTimeout, .scTimeout, .threadAttachTimeout:
            .timeout
        case .batchIncomplete:
            .batchIncomplete
        case .interrupted:
            .interrupted
        }
    }
}
