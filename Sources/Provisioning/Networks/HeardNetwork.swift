import StringEssentials

/// One access point a device (or the host) reports hearing, the same for every protocol; what a protocol
/// does not report stays nil. The name is the reporter's bytes, which nothing vouches for: it is cut to
/// the 32 bytes Wi-Fi allows, and whoever prints it escapes it.
public struct HeardNetwork: Sendable, Equatable {
    /// Whether joining takes a password, as far as the reporter says.
    public enum Security: String, Sendable, Equatable {
        case open
        case secured
        /// 802.1X: a user name and certificate, which none of the protocols sends.
        case enterprise
    }

    /// The radio band the access point was heard on.
    public enum Band: String, Sendable, Equatable {
        case ghz2_4 = "2.4 GHz"
        case ghz5 = "5 GHz"
        case ghz6 = "6 GHz"
    }

    /// The longest SSID Wi-Fi carries.
    public static let longestSSID = 32
    /// Below this many dBm a join often fails or drops.
    public static let weakSignal = -80

    /// The network's name, at most ``longestSSID`` bytes.
    public let ssid: [UInt8]
    /// Signal strength in dBm.
    public let rssi: Int
    public let security: Security?
    /// The reporter's own word for the authentication (`WPA2_PSK`, `WPA/WPA2`), for people.
    public let authentication: String?
    public let channel: Int?
    /// The centre frequency in MHz, where the reporter gives it instead of a channel (the host's scan).
    public let frequency: Int?
    public let bssid: [UInt8]?
    /// The access point takes WPA3 (SAE) only, no WPA2 passphrase.
    public let wpa3Only: Bool

    public init(
        ssid: some Sequence<UInt8>, rssi: Int, security: Security? = nil, authentication: String? = nil,
        channel: Int? = nil, frequency: Int? = nil, bssid: [UInt8]? = nil, wpa3Only: Bool = false
    ) {
        self.ssid = Array(ssid.prefix(Self.longestSSID))
        self.rssi = rssi
        self.security = security
        self.authentication = authentication
        self.channel = channel
        self.frequency = frequency
        self.bssid = bssid
        self.wpa3Only = wpa3Only
    }

    /// The name as text; bytes that are not UTF-8 become U+FFFD.
    public var name: String { String(decoding: ssid, as: UTF8.self) }

    /// The band of the frequency or, without one, of the channel number, when the reporter gave either.
    public var band: Band? {
        switch (frequency, channel) {
        case ((2400...2500)?, _): .ghz2_4
        case ((4900...5899)?, _): .ghz5
        case ((5925...7125)?, _): .ghz6
        case (nil, (1...14)?): .ghz2_4
        case (nil, (32...177)?): .ghz5
        default: nil
        }
    }

    /// `aa:bb:cc:dd:ee:ff`.
    public var bssidText: String? {
        bssid?.colonSeparatedHex
    }

    /// Whether this entry is the network `ssid` names, on the access point `bssid` pins if one is pinned
    /// and the reporter says which it heard.
    func isNetwork(_ ssid: String, bssid pinned: [UInt8]?) -> Bool {
        guard self.ssid == Array(ssid.utf8.prefix(Self.longestSSID)) else { return false }
        guard let pinned, let bssid else { return true }
        return bssid == pinned
    }
}
