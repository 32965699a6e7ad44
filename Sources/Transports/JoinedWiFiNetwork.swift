/// The hotspot the host is on: where to bind sockets and what the network handed out.
///
/// The device's own address is configuration (protocomm's default is 192.168.4.1), not read from
/// here; ``gateway`` lets a flow check that the network it joined looks like the device's.
public struct JoinedWiFiNetwork: Sendable, Equatable {
    /// The host's Wi-Fi interface, such as `wlan0`; sockets bind to it so traffic cannot leave by another route.
    public let interfaceName: String
    /// The hotspot's name.
    public let ssid: String
    /// The access point's hardware address (`24:0A:C4:1A:2B:3C`); a device ID may derive from it.
    public let bssid: String
    /// The host's IPv4 address on the hotspot, when the network service reports one.
    public let localAddress: String?
    /// The prefix length of ``localAddress``.
    public let prefixLength: Int?
    /// The IPv4 gateway the hotspot's DHCP server announced, usually the device itself.
    public let gateway: String?

    public init(
        interfaceName: String,
        ssid: String,
        bssid: String,
        localAddress: String?,
        prefixLength: Int?,
        gateway: String?
    ) {
        self.interfaceName = interfaceName
        self.ssid = ssid
        self.bssid = bssid
        self.localAddress = localAddress
        self.prefixLength = prefixLength
        self.gateway = gateway
    }
}
