/// Which hotspot to join and how long each step of joining and leaving may take.
public struct WiFiJoinRequest: Sendable, Equatable {
    /// The hotspot's name, such as `ZT_1A2B3C`.
    public var ssid: String
    /// The WPA2 passphrase; `nil` or empty joins an open hotspot.
    public var passphrase: String?
    /// Pins the join to one access point (`24:0A:C4:1A:2B:3C`) so a twin device nearby is never joined.
    public var bssid: String?
    /// Deadlines for the steps of joining and leaving.
    public var timeouts: Timeouts

    public init(ssid: String, passphrase: String?, bssid: String? = nil, timeouts: Timeouts = Timeouts()) {
        self.ssid = ssid
        self.passphrase = passphrase
        self.bssid = bssid
        self.timeouts = timeouts
    }

    /// Whether the hotspot is joined with a passphrase (WPA-PSK) rather than open.
    public var isSecured: Bool { !(passphrase ?? "").isEmpty }

    /// Deadlines for the steps of a join, each a separate budget.
    public struct Timeouts: Sendable, Equatable {
        /// Finding the hotspot in a scan.
        public var scan: Duration
        /// From asking to join until the host has an address.
        public var activation: Duration
        /// Each step of leaving: dropping the hotspot and reconnecting the previous network.
        public var restore: Duration

        public init(
            scan: Duration = .seconds(15), activation: Duration = .seconds(45), restore: Duration = .seconds(30)
        ) {
            self.scan = scan
            self.activation = activation
            self.restore = restore
        }
    }
}

extension WiFiJoinRequest: CustomStringConvertible, CustomReflectable {
    /// Names the hotspot without its passphrase, so a request can be logged.
    public var description: String {
        "WiFiJoinRequest(ssid: \(ssid), secured: \(isSecured), bssid: \(bssid ?? "any"))"
    }

    public var customMirror: Mirror {
        Mirror(self, children: ["ssid": ssid, "secured": isSecured, "bssid": bssid as Any, "timeouts": timeouts])
    }
}
