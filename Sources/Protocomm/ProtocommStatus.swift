/// The `Status` code of handshake and Wi-Fi responses (constants.proto).
///
/// Values this build does not know are kept in ``unrecognized(_:)`` so they can be reported
/// rather than lost or mistaken for success.
public enum ProtocommStatus: Hashable, Sendable, CustomStringConvertible {
    /// The request was carried out.
    case success
    /// `InvalidSecScheme`: the device runs another scheme.
    case invalidSecurityScheme
    /// `InvalidProto`: the message did not fit.
    case invalidProto
    /// `TooManySessions`.
    case tooManySessions
    /// `InvalidArgument`: e.g. an SSID over 32 bytes.
    case invalidArgument
    /// `InternalError`: e.g. a command the current state does not allow.
    case internalError
    /// `CryptoError`.
    case cryptoError
    /// `InvalidSession`.
    case invalidSession
    /// A value outside 0...7, kept as sent.
    case unrecognized(Int)

    /// The name constants.proto uses, e.g. `InvalidArgument`.
    public var description: String {
        switch self {
        case .success: "Success"
        case .invalidSecurityScheme: "InvalidSecScheme"
        case .invalidProto: "InvalidProto"
        case .tooManySessions: "TooManySessions"
        case .invalidArgument: "InvalidArgument"
        case .internalError: "InternalError"
        case .cryptoError: "CryptoError"
        case .invalidSession: "InvalidSession"
        case .unrecognized(let value): "Status(\(value))"
        }
    }
}
