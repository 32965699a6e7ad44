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
    public let bssid: [UInt8]?

    public init(
        ssid: some Sequence<UInt8>, rssi: Int, security: Security? = nil, authentication: String? = nil,
        channel: Int? = nil, bssid: [UInt8]? = nil
    ) {
        self.ssid = Array(ssid.prefix(Self.longestSSID))
        self.rssi = rssi
        self.security = security
        self.authentication = authentication
        self.channel = channel
        self.bssid = bssid
    }

    /// The name as text; bytes that are not UTF-8 become U+FFFD.
    public var name: String { String(decoding: ssid, as: UTF8.self) }

    /// The band the channel number lies in, when the reporter gave one.
    public var band: Band? {
        switch channel {
        case (1...14)?: .ghz2_4
        case (32...177)?: .ghz5
        default: nil
        }
    }

    /// `aa:bb:cc:dd:ee:ff`.
    public var bssidText: String? {
        bssid.map { bytes in bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined(separator: ":") }
    }

    /// Whether this entry is the network `ssid` names, on the access point `bssid` pins if one is pinned
    /// and the reporter says which it heard.
    func isNetwork(_ ssid: String, bssid pinned: [UInt8]?) -> Bool {
        guard self.ssid == Array(ssid.utf8.prefix(Self.longestSSID)) else { return false }
        guard let pinned, let bssid else { return true }
        return bssid == pinned
    }
}
