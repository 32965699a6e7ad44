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

    /// Maps a wire value to its case; ``unrecognized(_:)`` only for values outside 0...7.
    public init(rawValue: Int) {
        switch rawValue {
        case 0: self = .success
        case 1: self = .invalidSecurityScheme
        case 2: self = .invalidProto
        case 3: self = .tooManySessions
        case 4: self = .invalidArgument
        case 5: self = .internalError
        case 6: self = .cryptoError
        case 7: self = .invalidSession
        default: self = .unrecognized(rawValue)
        }
    }

    /// The wire value.
    public var rawValue: Int {
        switch self {
        case .success: 0
        case .invalidSecurityScheme: 1
        case .invalidProto: 2
        case .tooManySessions: 3
        case .invalidArgument: 4
        case .internalError: 5
        case .cryptoError: 6
        case .invalidSession: 7
        case .unrecognized(let value): value
        }
    }

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
