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

    // MARK: Host preconditions (3)
    public static let kernelBluetoothMissing = ErrorCode("host.no-kernel-bluetooth", .hostPrecondition)
    public static let permissionDenied = ErrorCode("host.permission-denied", .hostPrecondition)

    // MARK: Device not found (4)
    public static let lanNoReply = ErrorCode("lan.no-reply", .deviceNotFound)

    // MARK: Link failures (5)
    public static let bleConnectAborted = ErrorCode("ble.connect-aborted", .linkFailure)
    public static let bluFiSequenceMismatch = ErrorCode("blufi.sequence-mismatch", .linkFailure)

    // MARK: Authentication (6)
    public static let wrongPoP = ErrorCode("softap.wrong-pop", .authenticationFailed)
    public static let hotspotPasswordRejected = ErrorCode("nm.no-secrets", .authenticationFailed)

    // MARK: Timeouts and interruption
    public static let timeout = ErrorCode("timeout", .timeout)
    public static let interrupted = ErrorCode("interrupted", .interrupted)

    /// Every code above; tests use it to prove the spellings are unique.
    public static let catalogue: [ErrorCode] = sharedCatalogue + softAPCatalogue + bleCatalogue

    /// The codes more than one path reports.
    static let sharedCatalogue: [ErrorCode] = [
        .invalidOption, .secretMissing, .secretUnreadable,
        .kernelBluetoothMissing, .permissionDenied,
        .lanNoReply,
        .bleConnectAborted, .bluFiSequenceMismatch,
        .wrongPoP, .hotspotPasswordRejected,
        .timeout, .interrupted,
    ]
}
