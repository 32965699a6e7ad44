public import Transports

/// What went wrong talking to NetworkManager, in its own words and numbers.
///
/// Each case maps to a ``WiFiJoinFailureKind`` so flows choose exit statuses without importing this
/// adapter; the description quotes NetworkManager (state names, reason codes, error messages) for
/// `--verbose`, and never contains a passphrase.
public enum NetworkManagerError: Error, Sendable, Equatable {
    /// The system bus could not be reached at all.
    case busUnavailable(message: String)
    /// The bus took the connection and did not finish its handshake within the limit.
    case busNotAnswering(after: Duration)
    /// The bus is there but NetworkManager is not running on it.
    case notRunning
    /// libnm, which ztprov loads when it first joins a hotspot, is not installed or cannot be loaded.
    case libraryUnavailable(message: String)
    /// NetworkManager (polkit) refused an operation, such as `network-control` over SSH as non-root.
    case permissionDenied(operation: String, message: String)
    /// No Wi-Fi device: the named interface does not exist, or (`nil`) the host has none.
    case wifiDeviceNotFound(interface: String?)
    /// The named interface exists but is not a Wi-Fi device.
    case notWiFiDevice(interface: String)
    /// The wired test link (``NMSoftAPJoiner/Link/ethernetForTesting``) found no Ethernet device by
    /// that name (`nil`: none at all).
    case ethernetTestLinkUnavailable(interface: String?)
    /// Wi-Fi is switched off in NetworkManager or by rfkill.
    case wifiDisabled
    /// The Wi-Fi device cannot be used in its current state (unmanaged, unavailable).
    case deviceUnavailable(interface: String, state: NMDeviceState)
    /// No scan within the deadline showed the hotspot.
    case accessPointNotFound(ssid: String)
    /// The hotspot is still listed from a scan `lastSeenSecondsAgo` seconds back, but no scan within the
    /// deadline saw it again: it went away (switched off, out of range), and joining it would only take
    /// the host off its network until NetworkManager gave up.
    case accessPointNotSeenAgain(ssid: String, lastSeenSecondsAgo: Int)
    /// NetworkManager gave up on the activation and said why (`nil`: it gave no reason).
    case activationFailed(NMStateReason?)
    /// Activating `network` (the hotspot, or the previous profile) did not finish within its deadline.
    case activationTimedOut(network: String, lastDeviceState: NMDeviceState)
    /// Leaving worked, but the previous connection did not come back.
    case restoreFailed(connection: String, cause: String)
    /// A joiner serves one join at a time (one radio, one station) and is already joined.
    case alreadyJoined(interface: String)
    /// Any other error libnm reported, with the operation that caused it.
    case operationFailed(operation: String, message: String)
}

extension NetworkManagerError: WiFiJoinFailure {
    public var joinFailureKind: WiFiJoinFailureKind {
        switch self {
        case .busUnavailable, .notRunning, .libraryUnavailable: .serviceUnavailable
        case .busNotAnswering: .busNotAnswering
        case .permissionDenied: .permissionDenied
        case .wifiDeviceNotFound, .notWiFiDevice, .ethernetTestLinkUnavailable, .wifiDisabled, .deviceUnavailable,
            .alreadyJoined:
            .interfaceUnavailable
        case .accessPointNotFound, .accessPointNotSeenAgain: .networkNotFound
        case .activationFailed(let reason): Self.kind(of: reason?.meaning ?? .other)
        case .activationTimedOut: .timedOut
        case .restoreFailed: .restoreFailed
        case .operationFailed: .associationFailed
        }
    }

    private static func kind(of meaning: NMStateReason.Meaning) -> WiFiJoinFailureKind {
        switch meaning {
        case .wrongPassword: .passwordRejected
        case .networkNotFound: .networkNotFound
        case .associationTimedOut: .timedOut
        case .deviceGone: .interfaceUnavailable
        case .associationDropped, .supplicantFailed, .noAddress, .interrupted, .other: .associationFailed
        }
    }
}

extension NetworkManagerError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .busUnavailable(let message): "cannot reach the system bus: \(message)"
        case .busNotAnswering(let limit): "the system bus did not answer the connection within \(limit)"
        case .notRunning: "NetworkManager is not running"
        case .libraryUnavailable(let message): "cannot load NetworkManager's client library libnm: \(message)"
        case .permissionDenied(let operation, let message): "NetworkManager refused \(operation): \(message)"
        case .wifiDeviceNotFound(let interface?): "no network interface named \(interface)"
        case .wifiDeviceNotFound(nil): "NetworkManager knows no Wi-Fi device"
        case .notWiFiDevice(let interface): "\(interface) is not a Wi-Fi device"
        case .ethernetTestLinkUnavailable(let interface?): "\(interface) is not an Ethernet device for the test link"
        case .ethernetTestLinkUnavailable(nil): "NetworkManager knows no Ethernet device for the test link"
        case .wifiDisabled: "Wi-Fi is switched off in NetworkManager"
        case .deviceUnavailable(let interface, let state): "\(interface) cannot be used while \(state)"
        case .accessPointNotFound(let ssid): "no access point named \(ssid) in the scan results"
        case .accessPointNotSeenAgain(let ssid, let secondsAgo):
            "\(ssid) is listed from a scan \(secondsAgo) s ago, but no scan since has seen it"
        case .activationFailed(let reason?): "NetworkManager could not join the hotspot: \(reason)"
        case .activationFailed(nil): "NetworkManager could not join the hotspot and gave no reason"
        case .activationTimedOut(let network, let state): "joining \(network) did not finish in time (device \(state))"
        case .restoreFailed(let connection, let cause): "could not bring back connection \(connection): \(cause)"
        case .alreadyJoined(let interface): "already joined a hotspot on \(interface)"
        case .operationFailed(let operation, let message): "\(operation) failed: \(message)"
        }
    }
}
