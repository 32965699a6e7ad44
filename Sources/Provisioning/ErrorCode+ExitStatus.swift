extension ErrorCode {
    /// The process exit status the code implies, per the command-line contract's table.
    public var exitStatus: ExitStatus {
        switch self {
        case .invalidOption, .improvNotSupported, .secretMissing, .secretUnreadable, .secretEmpty, .secretInvalid,
            .wifiPasswordCharacters, .recordsInvalidLocation,
            .batchBadInput, .batchUnknownLane, .softAPInvalidSSID,
            .softAPInvalidPassphrase, .softAPInvalidHotspotPassword, .protocommCredentialsMissing,
            .threadInvalidDataset, .bleSeveralDevices:
            .usage
        case .kernelBluetoothMissing, .permissionDenied, .hostRadioBlocked, .bluetoothdAbsent, .noBluetoothAdapter,
            .bluetoothAdapterNotFound, .bluetoothAdapterPoweredOff, .bluetoothAdapterBlocked,
            .networkServiceUnavailable, .wifiInterfaceUnavailable, .softAPInterfaceUnusable, .lanInterfaceNotFound,
            .lanPortInUse, .lanSocketFailed, .recordsUnavailable, .recordsIncompatibleSchema, .recordsWriteFailed,
            .recordsReadFailed, .outputFailed, .busNotAnswering, .reportCannotServe:
            .hostPrecondition
        case .bleDeviceNotFound, .improvAlreadyProvisioned, .softAPHotspotNotFound, .lanNoReply, .lanDeviceNotFound:
            .deviceNotFound
        case .bleConnectAborted, .bleServicesMissing, .bleRefused, .bleLinkLost, .bluFiSequenceMismatch,
            .bluFiProtocolError, .improvRejected, .improvProtocolError, .softAPJoinFailed, .softAPRestoreFailed,
            .softAPDeviceUnreachable,
            .protocommEndpointMissing, .protocommConnectionClosed, .protocommProtocolError, .protocommOutcomeUnknown,
            .lanSendFailed, .scUnreachable:
            .linkFailure
        case .bluFiNegotiationFailed, .wrongPoP, .protocommSessionRejected, .protocommHandshakeFailed,
            .protocommUnsupportedSecurity, .hotspotPasswordRejected, .scTokenRejected,
            .blePairingFailed, .securityBelowMinimum:
            .authenticationFailed
        case .bluFiWiFiWrongPassword, .bluFiWiFiNotFound, .bluFiWiFiJoinFailed, .bluFiWiFiScanFailed,
            .improvWiFiUnableToConnect, .protocommWiFiWrongPassword, .protocommWiFiNotFound,
            .protocommWiFiJoinFailed,
            .protocommConfigRejected, .networkNotHeard, .networkPasswordRequired, .networkIsOpen, .networkEnterprise,
            .threadDatasetRejected, .threadNetworkNotFound, .threadAttachFailed:
            .wifiJoinFailed
        case .bluFiUnusableDeviceID, .lanBadReply, .handoffNoToken, .handoffNoInfo, .handoffNotConfirmed,
            .handoffServerMismatch, .handoffRejected, .handoffTargetIsHub, .scHTTPError, .scBadResponse:
            .handoffFailed
        // A device still joining when time ran out is a timeout on every path, BluFi and SoftAP alike.
        case .timeout, .improvAuthorizationTimeout, .softAPJoinTimeout, .protocommDeviceTimeout,
            .protocommWiFiConnectTimeout, .bluFiWiFiJoinTimeout, .scTimeout, .threadAttachTimeout:
            .timeout
        case .batchIncomplete, .batchClaimLost:
            .batchIncomplete
        case .hangUp:
            .hungUp
        case .interrupted:
            .interrupted
        case .terminated:
            .terminated
        }
    }
}
