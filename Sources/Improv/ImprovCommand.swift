/// The RPC command identifiers; a result frame carries the identifier of the command it answers.
public enum ImprovCommand: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// SSID and password; needs authorization; answered by a result whose first string is a redirect URL.
    case sendWiFiSettings = 0x01
    /// The device makes itself noticed; no result.
    case identify = 0x02
    /// Firmware name and version, hardware, device name (and optionally OS name and version).
    case deviceInfo = 0x03
    /// The networks the device sees, as (SSID, RSSI, authentication) string triples.
    case scanWiFiNetworks = 0x04
    /// Gets (no data) or sets the hostname; needs authorization.
    case hostname = 0x05
    /// Gets (no data) or sets the device name; needs authorization to set.
    case deviceName = 0x06

    /// The capability a device must advertise before a client sends this command, if any.
    public var requiredCapability: ImprovCapabilities? {
        switch self {
        case .identify: .identify
        case .deviceInfo: .deviceInfo
        case .scanWiFiNetworks: .scanWiFi
        case .hostname: .hostname
        case .sendWiFiSettings, .deviceName: nil
        }
    }

    public var description: String {
        switch self {
        case .sendWiFiSettings: "send Wi-Fi settings"
        case .identify: "identify"
        case .deviceInfo: "device info"
        case .scanWiFiNetworks: "scan Wi-Fi networks"
        case .hostname: "hostname"
        case .deviceName: "device name"
        }
    }
}
