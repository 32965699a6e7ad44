/// What a ``BluFiDeviceSession`` observed or did, for the emulator and for test records.
///
/// Test-side records may hold secrets (passwords arrive in ``fieldReceived(_:_:)``); never log them
/// from the tool.
public enum BluFiDeviceEvent: Sendable, Equatable {
    /// SET_SEC_MODE applied to the device's later frames.
    case securityModeChanged(BluFiSecurityMode)
    /// A key negotiation completed; later encrypted frames use its keys.
    case negotiated(BluFiSecurityScheme)
    /// SET_OPMODE applied.
    case operationModeChanged(BluFiOperationMode)
    /// A station, SoftAP or enterprise field was stored (or, for enterprise fields, ignored).
    case fieldReceived(BluFiFrameType, [UInt8])
    /// CONNECT_AP: the station is joining; call ``BluFiDeviceSession/wifiJoinCompleted()`` to finish.
    case connectRequested
    /// DISCONNECT_AP: the station left.
    case disconnectAPRequested
    /// DEAUTH_STA with its payload (the reference firmware does nothing else).
    case deauthenticationRequested([UInt8])
    /// CUSTOM_DATA from the phone.
    case customDataReceived([UInt8])
    /// An ERROR frame went out; `cause` is the frame-level error behind it, if any.
    case errorSent(BluFiDeviceErrorCode, cause: BluFiError?)
    /// A frame of an unknown subtype, or one that only flows device → phone, was dropped silently.
    case frameDropped(BluFiFrameType)
}
