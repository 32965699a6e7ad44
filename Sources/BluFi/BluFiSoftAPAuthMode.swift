/// The SoftAP's authentication mode (`wifi_auth_mode_t`); kept raw because newer IDF versions add values.
public struct BluFiSoftAPAuthMode: RawRepresentable, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// No password.
    public static let open = BluFiSoftAPAuthMode(rawValue: 0)
    /// WEP.
    public static let wep = BluFiSoftAPAuthMode(rawValue: 1)
    /// WPA-PSK.
    public static let wpaPSK = BluFiSoftAPAuthMode(rawValue: 2)
    /// WPA2-PSK, what the official apps default to.
    public static let wpa2PSK = BluFiSoftAPAuthMode(rawValue: 3)
    /// WPA/WPA2-PSK mixed.
    public static let wpaWPA2PSK = BluFiSoftAPAuthMode(rawValue: 4)
    /// WPA3-PSK (SAE).
    public static let wpa3PSK = BluFiSoftAPAuthMode(rawValue: 6)
    /// WPA2/WPA3-PSK mixed.
    public static let wpa2WPA3PSK = BluFiSoftAPAuthMode(rawValue: 7)
}
