/// Why the station's last connection attempt ended: ESP-IDF's `wifi_err_reason_t`, truncated to 8 bits.
public struct BluFiConnectionEndReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// What the reference firmware reports before any attempt.
    public static let none = BluFiConnectionEndReason(rawValue: 255)
    /// Authentication expired (802.11 reason 2).
    public static let authenticationExpired = BluFiConnectionEndReason(rawValue: 2)
    /// The station left on request (802.11 reason 8), as after DISCONNECT_AP.
    public static let leftOnRequest = BluFiConnectionEndReason(rawValue: 8)
    /// The WPA 4-way handshake timed out: the typical wrong-password outcome.
    public static let fourWayHandshakeTimeout = BluFiConnectionEndReason(rawValue: 15)
    /// No access point with this SSID (and BSSID, if locked) was found.
    public static let noAPFound = BluFiConnectionEndReason(rawValue: 201)
    /// Authentication failed.
    public static let authenticationFailed = BluFiConnectionEndReason(rawValue: 202)
    /// Association failed.
    public static let associationFailed = BluFiConnectionEndReason(rawValue: 203)
    /// The handshake timed out (ESP-IDF's own code, also typical of a wrong password).
    public static let handshakeTimeout = BluFiConnectionEndReason(rawValue: 204)
    /// The connection failed for another reason.
    public static let connectionFailed = BluFiConnectionEndReason(rawValue: 205)
    /// No access point with a compatible security configuration.
    public static let noAPWithCompatibleSecurity = BluFiConnectionEndReason(rawValue: 210)
    /// No access point within the configured auth-mode threshold.
    public static let noAPInAuthModeThreshold = BluFiConnectionEndReason(rawValue: 211)
    /// No access point within the configured RSSI threshold.
    public static let noAPInRSSIThreshold = BluFiConnectionEndReason(rawValue: 212)

    /// The reasons a wrong passphrase produces.
    public var suggestsWrongPassword: Bool {
        [.fourWayHandshakeTimeout, .authenticationFailed, .handshakeTimeout].contains(self)
    }

    /// The reasons an absent, out-of-range or incompatible access point produces.
    public var suggestsNetworkNotFound: Bool {
        [.noAPFound, .noAPWithCompatibleSecurity, .noAPInAuthModeThreshold, .noAPInRSSIThreshold].contains(self)
    }

    public var description: String { "reason \(rawValue)" }
}
