/// The device's answer to "get status" on `prov-config` (`RespGetStatus`).
public enum ProtocommWiFiStatus: Hashable, Sendable {
    /// Still trying (also the state before any config was applied). `attemptsRemaining` is set
    /// when firmware with limited retries (ESP-IDF 5.4.1 and later) reports a failed attempt.
    case connecting(attemptsRemaining: UInt32?)
    /// Joined and addressed. The device schedules its provisioning service to stop right after
    /// sending this (about a second later), unless the firmware disabled auto-stop.
    case connected(ProtocommWiFiConnection)
    /// Gave up; new credentials are refused until a `prov-ctrl` reset.
    case failed(ProtocommWiFiFailureReason)
    /// Defined by the proto but never sent by ESP-IDF 5.5 or network_provisioning; a failure.
    case disconnected
    /// A station state this build does not know, kept as its wire value.
    case unrecognized(state: Int)
}

extension ProtocommWiFiStatus {
    /// Reads the state and its oneof detail; a missing detail reads as proto3's default.
    init(_ wire: WireRespGetStatus) {
        switch wire.staState {
        case .connecting:
            if case .attemptFailed(let attempt) = wire.state {
                self = .connecting(attemptsRemaining: attempt.attemptsRemaining)
            } else {
                self = .connecting(attemptsRemaining: nil)
            }
        case .connected:
            self = .connected(ProtocommWiFiConnection(wire.connected))
        case .connectionFailed:
            // AuthError is the enum's zero value: a failure without a decoded reason is an auth error.
            self = .failed(ProtocommWiFiFailureReason(wire.failReason))
        case .disconnected:
            self = .disconnected
        case .UNRECOGNIZED(let value):
            self = .unrecognized(state: value)
        }
    }

    var wire: WireRespGetStatus {
        var wire = WireRespGetStatus()
        switch self {
        case .connecting(let attemptsRemaining):
            wire.staState = .connecting
            if let attemptsRemaining {
                var attempt = WireWifiAttemptFailed()
                attempt.attemptsRemaining = attemptsRemaining
                wire.attemptFailed = attempt
            }
        case .connected(let connection):
            wire.staState = .connected
            wire.connected = connection.wire
        case .failed(let reason):
            wire.staState = .connectionFailed
            wire.failReason = reason.wire
        case .disconnected:
            wire.staState = .disconnected
        case .unrecognized(let state):
            wire.staState = .UNRECOGNIZED(state)
        }
        return wire
    }
}
