/// A network device's state as NetworkManager reports it (`NMDeviceState`).
public enum NMDeviceState: UInt32, Sendable, CustomStringConvertible {
    case unknown = 0
    case unmanaged = 10
    case unavailable = 20
    case disconnected = 30
    case prepare = 40
    case config = 50
    case needAuth = 60
    case ipConfig = 70
    case ipCheck = 80
    case secondaries = 90
    case activated = 100
    case deactivating = 110
    case failed = 120

    /// Maps NetworkManager's number, treating a number this build does not know as unknown.
    init(code: UInt32) {
        self = NMDeviceState(rawValue: code) ?? .unknown
    }

    /// NetworkManager's own name for the state, as nmcli prints it.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .unmanaged: "unmanaged"
        case .unavailable: "unavailable"
        case .disconnected: "disconnected"
        case .prepare: "prepare"
        case .config: "config"
        case .needAuth: "need-auth"
        case .ipConfig: "ip-config"
        case .ipCheck: "ip-check"
        case .secondaries: "secondaries"
        case .activated: "activated"
        case .deactivating: "deactivating"
        case .failed: "failed"
        }
    }
}

/// An active connection's state as NetworkManager reports it (`NMActiveConnectionState`).
enum NMActiveConnectionState: UInt32, Sendable {
    case unknown = 0
    case activating = 1
    case activated = 2
    case deactivating = 3
    case deactivated = 4

    init(code: UInt32) {
        self = NMActiveConnectionState(rawValue: code) ?? .unknown
    }
}
