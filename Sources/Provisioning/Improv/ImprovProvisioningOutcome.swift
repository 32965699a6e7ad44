public import Improv

/// What an Improv run established and learned; no secret.
public struct ImprovProvisioningOutcome: Sendable, Equatable {
    /// The state read after connecting.
    public var initialState: ImprovState?
    public var capabilities: ImprovCapabilities?
    /// Whether the flow had to wait for a person to authorize the device.
    public var waitedForAuthorization = false
    public var identified = false
    public var deviceInfo: ImprovDeviceInfo?
    /// The scan's networks, strongest first, when one ran.
    public var networks: [ImprovWiFiNetwork]?
    public var hostname: String?
    public var deviceName: String?
    /// The SSID the device joined, when Wi-Fi settings were sent.
    public var joinedSSID: String?
    public var redirectURL: String?
    /// The link's ATT MTU.
    public var mtu: Int

    public init(mtu: Int) {
        self.mtu = mtu
    }
}
