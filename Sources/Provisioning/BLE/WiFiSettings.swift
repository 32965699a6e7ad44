public import BluFi

/// The Wi-Fi network a BLE provisioning flow sends the device to, as the `ble` and `batch` options give it: join
/// a network, or (BluFi only) run the device's own access point, or both.
///
/// Passwords stay ``Secret``s until ``request`` builds the core's request, the one place they are revealed.
public struct WiFiSettings: Sendable, Equatable {
    /// The Wi-Fi mode (`--mode sta`, `softap` or `sta+softap`) and the settings it needs.
    public typealias Mode = BluFiWiFiMode<WiFiStationSettings, BluFiSoftAPSettings>

    /// What the device is to become.
    public var mode: Mode
    /// Whether success needs the device ID (the first custom data a Zhiting device sends after
    /// joining): the LAN hand-off does. Otherwise the flow still waits a short grace for it, since
    /// the ID is the identity a record keeps, and goes on without it (a stock ESP-IDF example never
    /// sends one).
    public var expectsDeviceID: Bool
    /// Ask the device for the networks it sees before sending the settings (`--list-networks`).
    public var listsNetworks: Bool
    /// Have the device scan before sending, and refuse a network it does not hear (`--check-network`).
    public var checksNetwork: Bool
    /// The network does not broadcast its name (`--hidden`): a scan that misses it refuses nothing.
    public var hidden: Bool

    /// Settings for `mode`; say explicitly whether the device ID is awaited.
    public init(
        _ mode: Mode, expectsDeviceID: Bool, listsNetworks: Bool = false, checksNetwork: Bool = false,
        hidden: Bool = false
    ) {
        self.mode = mode
        self.expectsDeviceID = expectsDeviceID
        self.listsNetworks = listsNetworks
        self.checksNetwork = checksNetwork
        self.hidden = hidden
    }

    /// The station's network as a scan judges it; nil when the device joins none.
    public var join: NetworkJoin? {
        let station: WiFiStationSettings
        switch mode {
        case .station(let joined), .stationAndSoftAP(let joined, _): station = joined
        case .softAP: return nil
        }
        return NetworkJoin(
            ssid: station.ssid, passwordGiven: !station.password.isEmpty, bssid: station.bssid, hidden: hidden)
    }

    /// The core's request, passwords as UTF-8 bytes.
    var request: BluFiProvisioningRequest {
        BluFiProvisioningRequest(
            mode.map(station: \.configuration, softAP: \.configuration),
            deviceID: expectsDeviceID ? .required : .awaitedBriefly)
    }
}

/// The network the device joins.
public struct WiFiStationSettings: Sendable, Equatable {
    /// 1 to 32 bytes of UTF-8.
    public var ssid: String
    /// 8 to 63 characters, or empty for an open network.
    public var password: Secret
    /// Six bytes to pin the join to one access point.
    public var bssid: [UInt8]?

    /// A network to join, optionally pinned to one access point.
    public init(ssid: String, password: Secret, bssid: [UInt8]? = nil) {
        self.ssid = ssid
        self.password = password
        self.bssid = bssid
    }

    var configuration: BluFiStationConfiguration {
        BluFiStationConfiguration(ssid: ssid, password: password.revealed(), bssid: bssid)
    }
}

/// The device's own access point; an empty SSID or password, or a zero, keeps the device's value.
public struct BluFiSoftAPSettings: Sendable, Equatable {
    /// The core's settings but the password, which ``configuration`` adds.
    private var withoutPassword: BluFiSoftAPConfiguration
    /// At most 31 bytes on the reference firmware (it reuses the SSID buffer's size).
    public var password: Secret

    /// SoftAP settings: an SSID of at most 31 bytes on the reference firmware, channel 1 to 13, and 1 to 4
    /// connections; zero channel and connection limit keep the device's values.
    public init(
        ssid: String,
        password: Secret,
        channel: UInt8 = 0,
        maxConnections: UInt8 = 0,
        authMode: BluFiSoftAPAuthMode = .wpa2PSK
    ) {
        withoutPassword = BluFiSoftAPConfiguration(
            ssid: Array(ssid.utf8), password: [], channel: channel, maxConnections: maxConnections, authMode: authMode)
        self.password = password
    }

    var configuration: BluFiSoftAPConfiguration {
        var configuration = withoutPassword
        configuration.password = Array(password.revealed().utf8)
        return configuration
    }
}

extension WiFiSettings.Mode {
    /// The network to join when the device is only to join one (no access point of its own).
    public var stationOnly: WiFiStationSettings? {
        guard case .station(let station) = self else { return nil }
        return station
    }
}
