public import Improv

/// What an emulated Improv device is like: whether it needs a button press, what it supports, and
/// which network it can join.
public struct EmulatedImprovDeviceConfiguration: Sendable {
    /// How a device answers a Wi-Fi scan: the specification's one result with every network, or one
    /// result per network and an empty result at the end (as ESPHome does).
    public enum ScanStyle: Sendable {
        case singleResult
        case resultPerNetwork
    }

    public var requiresAuthorization: Bool
    public var capabilities: ImprovCapabilities
    /// The only network the device can join; any other credentials end in "unable to connect".
    public var joinableNetwork: ImprovCredentials
    public var redirectURL: String?
    public var deviceInfo: ImprovDeviceInfo
    public var networks: [ImprovWiFiNetwork]
    public var scanStyle: ScanStyle
    public var hostname: String
    /// Devices before revision 2.4 answer the device name command as unknown.
    public var supportsDeviceName: Bool

    public init(
        requiresAuthorization: Bool = false,
        capabilities: ImprovCapabilities = [.identify, .deviceInfo, .scanWiFi, .hostname],
        joinableNetwork: ImprovCredentials,
        redirectURL: String? = "http://improv-device.local/",
        deviceInfo: ImprovDeviceInfo = ImprovDeviceInfo(
            firmwareName: "ESPHome", firmwareVersion: "2024.6.0", hardware: "esp32-c3", deviceName: "Kitchen Plug"),
        networks: [ImprovWiFiNetwork] = [
            ImprovWiFiNetwork(ssid: "HomeNet", rssi: -48, authentication: ["WPA2"]),
            ImprovWiFiNetwork(ssid: "Guest", rssi: -71, authentication: ["NO"]),
        ],
        scanStyle: ScanStyle = .resultPerNetwork,
        hostname: String = "kitchen-plug",
        supportsDeviceName: Bool = true
    ) {
        self.requiresAuthorization = requiresAuthorization
        self.capabilities = capabilities
        self.joinableNetwork = joinableNetwork
        self.redirectURL = redirectURL
        self.deviceInfo = deviceInfo
        self.networks = networks
        self.scanStyle = scanStyle
        self.hostname = hostname
        self.supportsDeviceName = supportsDeviceName
    }
}
