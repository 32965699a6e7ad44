/// Why the device could not join the network (`WifiConnectFailedReason`).
public enum ProtocommWiFiFailureReason: Hashable, Sendable, CustomStringConvertible {
    /// Wrong passphrase or another authentication failure (4-way handshake, MIC).
    case authenticationError
    /// No access point with that SSID answered.
    case networkNotFound
    /// A reason this build does not know, kept as its wire value.
    case unrecognized(Int)

    /// Maps a wire value to its case.
    public init(rawValue: Int) {
        switch rawValue {
        case 0: self = .authenticationError
        case 1: self = .networkNotFound
        default: self = .unrecognized(rawValue)
        }
    }

    /// The wire value.
    public var rawValue: Int {
        switch self {
        case .authenticationError: 0
        case .networkNotFound: 1
        case .unrecognized(let value): value
        }
    }

    /// A readable reason.
    public var description: String {
        switch self {
        case .authenticationError: "authentication error"
        case .networkNotFound: "network not found"
        case .unrecognized(let value): "failure reason \(value)"
        }
    }
}

extension ProtocommWiFiFailureReason {
    init(_ wire: WireWifiConnectFailedReason) {
        self.init(rawValue: wire.rawValue)
    }

    var wire: WireWifiConnectFailedReason {
        WireWifiConnectFailedReason(rawValue: rawValue) ?? .UNRECOGNIZED(rawValue)
    }
}
