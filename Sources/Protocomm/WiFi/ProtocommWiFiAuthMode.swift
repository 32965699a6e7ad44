/// A Wi-Fi authentication mode as the device reports it.
///
/// An open set on purpose: the device copies ESP-IDF's `wifi_auth_mode_t` into the proto enum, and
/// that C enum runs past the proto's last value (7), so 8 (WAPI) to 16 (WPA Enterprise) and any
/// later addition arrive too. Every value is kept; names exist for the ones ESP-IDF 5.5 defines.
public struct ProtocommWiFiAuthMode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `wifi_auth_mode_t` value.
    public let rawValue: Int

    /// Any value, known or not.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// No authentication.
    public static let open = Self(rawValue: 0)
    /// WEP.
    public static let wep = Self(rawValue: 1)
    /// WPA personal.
    public static let wpaPSK = Self(rawValue: 2)
    /// WPA2 personal.
    public static let wpa2PSK = Self(rawValue: 3)
    /// WPA/WPA2 personal mixed.
    public static let wpaWPA2PSK = Self(rawValue: 4)
    /// WPA2 enterprise.
    public static let wpa2Enterprise = Self(rawValue: 5)
    /// WPA3 personal (SAE).
    public static let wpa3PSK = Self(rawValue: 6)
    /// WPA2/WPA3 personal transition.
    public static let wpa2WPA3PSK = Self(rawValue: 7)
    /// WAPI personal (8, beyond the proto enum).
    public static let wapiPSK = Self(rawValue: 8)
    /// Opportunistic wireless encryption (9).
    public static let owe = Self(rawValue: 9)
    /// WPA3 enterprise 192-bit (10).
    public static let wpa3Enterprise192 = Self(rawValue: 10)
    /// WPA3 personal with extended keys (11).
    public static let wpa3ExtPSK = Self(rawValue: 11)
    /// WPA3 extended-key transition mode (12).
    public static let wpa3ExtPSKMixed = Self(rawValue: 12)
    /// Device provisioning protocol (13).
    public static let dpp = Self(rawValue: 13)
    /// WPA3 enterprise (14).
    public static let wpa3Enterprise = Self(rawValue: 14)
    /// WPA2/WPA3 enterprise (15).
    public static let wpa2WPA3Enterprise = Self(rawValue: 15)
    /// WPA enterprise (16).
    public static let wpaEnterprise = Self(rawValue: 16)

    private static let names = [
        "Open", "WEP", "WPA-PSK", "WPA2-PSK", "WPA/WPA2-PSK", "WPA2-Enterprise", "WPA3-PSK", "WPA2/WPA3-PSK",
        "WAPI-PSK", "OWE", "WPA3-Enterprise-192", "WPA3-Ext-PSK", "WPA3-Ext-PSK-Mixed", "DPP", "WPA3-Enterprise",
        "WPA2/WPA3-Enterprise", "WPA-Enterprise",
    ]

    /// A readable name, or `auth mode N` for values this build does not know.
    public var description: String {
        Self.names.indices.contains(rawValue) ? Self.names[rawValue] : "auth mode \(rawValue)"
    }
}

extension ProtocommWiFiAuthMode {
    init(_ wire: WireWifiAuthMode) {
        self.init(rawValue: wire.rawValue)
    }

    var wire: WireWifiAuthMode {
        WireWifiAuthMode(rawValue: rawValue) ?? .UNRECOGNIZED(rawValue)
    }
}
