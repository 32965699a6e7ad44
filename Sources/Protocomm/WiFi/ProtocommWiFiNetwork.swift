#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One access point from a device scan (`WiFiScanResult`).
public struct ProtocommWiFiNetwork: Hashable, Sendable {
    /// The SSID's raw bytes, at most 32, not padded.
    public var ssid: [UInt8]
    /// The primary channel.
    public var channel: UInt32
    /// Signal strength in dBm; the device sorts results by it, strongest first.
    public var rssi: Int32
    /// The access point's MAC address (6 bytes).
    public var bssid: [UInt8]
    /// The advertised authentication mode.
    public var authMode: ProtocommWiFiAuthMode

    /// A scan entry.
    public init(ssid: [UInt8], channel: UInt32, rssi: Int32, bssid: [UInt8], authMode: ProtocommWiFiAuthMode) {
        self.ssid = ssid
        self.channel = channel
        self.rssi = rssi
        self.bssid = bssid
        self.authMode = authMode
    }

    /// The SSID as text when it is valid UTF-8.
    public var ssidText: String? {
        String(validating: ssid, as: UTF8.self)
    }
}

extension ProtocommWiFiNetwork {
    init(_ wire: WireWiFiScanResult) {
        self.init(
            ssid: wire.ssid.byteArray, channel: wire.channel, rssi: wire.rssi, bssid: wire.bssid.byteArray,
            authMode: ProtocommWiFiAuthMode(wire.auth))
    }

    var wire: WireWiFiScanResult {
        var wire = WireWiFiScanResult()
        wire.ssid = Data(ssid)
        wire.channel = channel
        wire.rssi = rssi
        wire.bssid = Data(bssid)
        wire.auth = authMode.wire
        return wire
    }
}
