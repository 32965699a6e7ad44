/// A stable, machine-readable error code such as `ble.connect-aborted`, with the exit status it implies.
///
/// Codes appear in `error[CODE]:` lines and in the JSON result; scripts match on them, so an
/// existing code never changes its spelling or its exit status.
public struct ErrorCode: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public let exitStatus: ExitStatus

    init(_ rawValue: String, _ exitStatus: ExitStatus) {
        self.rawValue = rawValue
        self.exitStatus = exitStatus
    }

    public var description: String { rawValue }
}

/// The catalogue: every code ztprov can report, grouped by the part of the host or protocol at fault.
extension ErrorCode {
    // MARK: Usage (2)
    public static let invalidOption = ErrorCode("usage.invalid-option", .usage)
    public static let secretMissing = ErrorCode("usage.secret-missing", .usage)
    public static let secretUnreadable = ErrorCode("usage.secret-unreadable", .usage)
    /// A secret source gave an empty value; open networks are chosen with `--open-network` instead.
    public static let secretEmpty = ErrorCode("usage.secret-empty", .usage)
    /// A secret is not UTF-8 text or holds a NUL byte, so it could not be sent as given.
    public static let secretInvalid = ErrorCode("usage.secret-invalid", .usage)

    // MARK: Host preconditions (3)
    public static let kernelBluetoothMissing = ErrorCode("host.no-kernel-bluetooth", .hostPrecondition)
    public static let permissionDenied = ErrorCode("host.permission-denied", .hostPrecondition)
    public static let lanInterfaceNotFound = ErrorCode("lan.interface-not-found", .hostPrecondition)
    public static let lanPortInUse = ErrorCode("lan.port-in-use", .hostPrecondition)
    public static let lanSocketFailed = ErrorCode("lan.socket-failed", .hostPrecondition)

    // MARK: Device not found (4)
    public static let lanNoReply = ErrorCode("lan.no-reply", .deviceNotFound)
    public static let lanDeviceNotFound = ErrorCode("lan.device-not-found", .deviceNotFound)

    // MARK: Link failures (5)
    public static let bleConnectAborted = ErrorCode("ble.connect-aborted", .linkFailure)
    public static let bluFiSequenceMismatch = ErrorCode("blufi.sequence-mismatch", .linkFailure)
    public static let lanSendFailed = ErrorCode("lan.send-failed", .linkFailure)
    public static let scUnreachable = ErrorCode("sc.unreachable", .linkFailure)

    // MARK: Authentication (6)
    public static let wrongPoP = ErrorCode("softap.wrong-pop", .authenticationFailed)
    public static let hotspotPasswordRejected = ErrorCode("nm.no-secrets", .authenticationFailed)
    public static let scTokenRejected = ErrorCode("sc.token-rejected", .authenticationFailed)

    // MARK: Hand-off failed or not confirmed (8)
    public static let lanBadReply = ErrorCode("lan.bad-reply", .handoffFailed)
    public static let handoffNoToken = ErrorCode("handoff.no-token", .handoffFailed)
    public static let handoffNoInfo = ErrorCode("handoff.no-info", .handoffFailed)
    public static let handoffNotConfirmed = ErrorCode("handoff.not-confirmed", .handoffFailed)
    public static let handoffServerMismatch = ErrorCode("handoff.server-mismatch", .handoffFailed)
    public static let handoffRejected = ErrorCode("handoff.rejected", .handoffFailed)
    public static let handoffTargetIsHub = ErrorCode("handoff.target-is-hub", .handoffFailed)
    public static let scHTTPError = ErrorCode("sc.http-error", .handoffFailed)
    public static let scBadResponse = ErrorCode("sc.bad-response", .handoffFailed)

    // MARK: Timeouts and interruption
    public static let timeout = ErrorCode("timeout", .timeout)
    public static let scTimeout = ErrorCode("sc.timeout", .timeout)
    public static let interrupted = ErrorCode("interrupted", .interrupted)

    /// Every code ztprov can report; tests use it to prove the spellings are unique.
    public static let catalogue: [ErrorCode] =
        sharedCatalogue + softAPCatalogue + bleCatalogue + hostCatalogue + batchCatalogue + recordsCatalogue

    /// The general, LAN and SC codes; each path adds its own list.
    static let sharedCatalogue: [ErrorCode] = [
        .invalidOption, .secretMissing, .secretUnreadable, .secretEmpty, .secretInvalid,
        .kernelBluetoothMissing, .permissionDenied, .lanInterfaceNotFound, .lanPortInUse, .lanSocketFailed,
        .lanNoReply, .lanDeviceNotFound,
        .bleConnectAborted, .bluFiSequenceMismatch, .lanSendFailed, .scUnreachable,
        .wrongPoP, .hotspotPasswordRejected, .scTokenRejected,
        .lanBadReply, .handoffNoToken, .handoffNoInfo, .handoffNotConfirmed, .handoffServerMismatch,
        .handoffRejected, .handoffTargetIsHub, .scHTTPError, .scBadResponse,
        .timeout, .scTimeout, .interrupted,
    ]
}
