/// An error from a ``WiFiJoiner`` that says which kind of trouble it is, so a flow can choose an exit
/// status and a hint without knowing which adapter threw it.
public protocol WiFiJoinFailure: Error {
    /// The kind of trouble; the error's own description keeps the system's words.
    var joinFailureKind: WiFiJoinFailureKind { get }
}

/// The kinds of trouble joining or leaving a hotspot, as a person would have to fix them.
public enum WiFiJoinFailureKind: Sendable, Equatable, CaseIterable {
    /// The network service (NetworkManager) is not running or not reachable.
    case serviceUnavailable
    /// The system bus took the connection but never finished its handshake.
    case busNotAnswering
    /// The service refused the request for lack of rights (polkit).
    case permissionDenied
    /// No usable Wi-Fi interface: missing, unmanaged, or its radio is off.
    case interfaceUnavailable
    /// The hotspot is not visible: the device is not in provisioning mode, or out of range.
    case networkNotFound
    /// The hotspot rejected the passphrase, or one was needed and none given.
    case passwordRejected
    /// Association or address assignment failed for another reason the service gave.
    case associationFailed
    /// A step did not finish within its deadline.
    case timedOut
    /// Leaving worked only in part: the previous network did not come back.
    case restoreFailed
}
