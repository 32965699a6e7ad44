#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What the device reports once it has joined the network and got an address (`WifiConnectedState`).
public struct ProtocommWiFiConnection: Hashable, Sendable {
    /// The station's IPv4 address as dotted text, e.g. `192.168.1.50`.
    public var ipAddress: String
    /// The network's authentication mode.
    public var authMode: ProtocommWiFiAuthMode
    /// The SSID's raw bytes (SSIDs need not be UTF-8).
    public var ssid: [UInt8]
    /// Six bytes, or empty when the device did not say.
    public var bssid: [UInt8]
    /// The channel the station joined on (the SoftAP follows it).
    public var channel: Int32

    /// A connection report; unknown details default to empty.
    public init(
        ipAddress: String, authMode: ProtocommWiFiAuthMode = .open, ssid: [UInt8] = [], bssid: [UInt8] = [],
        channel: Int32 = 0
    ) {
        self.ipAddress = ipAddress
        self.authMode = authMode
        self.ssid = ssid
        self.bssid = bssid
        self.channel = channel
    }
}

extension ProtocommWiFiConnection {
    init(_ wire: WireWifiConnectedState) {
        self.init(
            ipAddress: wire.ip4Addr, authMode: ProtocommWiFiAuthMode(wire.authMode), ssid: wire.ssid.byteArray,
            bssid: wire.bssid.byteArray, channel: wire.channel)
    }

    var wire: WireWifiConnectedState {
        var wire = WireWifiConnectedState()
        wire.ip4Addr = ipAddress
        wire.authMode = authMode.wire
        wire.ssid = Data(ssid)
        wire.bssid = Data(bssid)
        wire.channel = channel
        return wire
    }
}
