/// The generated `Status` enum read as ``ProtocommStatus``, so the wire values are written down once, in the
/// generated code.
extension WireStatus {
    var protocommStatus: ProtocommStatus {
        switch self {
        case .success: .success
        case .invalidSecScheme: .invalidSecurityScheme
        case .invalidProto: .invalidProto
        case .tooManySessions: .tooManySessions
        case .invalidArgument: .invalidArgument
        case .internalError: .internalError
        case .cryptoError: .cryptoError
        case .invalidSession: .invalidSession
        case .UNRECOGNIZED(let value): .unrecognized(value)
        }
    }

    /// Throws ``ProtocommError/failureStatus(_:)`` unless this is `Success`.
    func requireSuccess() throws(ProtocommError) {
        guard self == .success else { throw .failureStatus(protocommStatus) }
    }
}
