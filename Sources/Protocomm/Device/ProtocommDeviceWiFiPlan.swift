/// How the emulated device's Wi-Fi behaves: what a scan finds, how long joining takes and how it ends.
public struct ProtocommDeviceWiFiPlan: Hashable, Sendable {
    /// How joining ends once the connecting polls are used up.
    public enum Outcome: Hashable, Sendable {
        /// Join whatever was configured and report this address.
        case connect(ipAddress: String)
        /// Fail with this reason.
        case fail(ProtocommWiFiFailureReason)
        /// Decide like a real network would: the SSID must be one of ``networks`` (else
        /// `networkNotFound`) and the passphrase must match `passphrases[ssid]` (else `authError`).
        case checkPassphrases([String: String], ipAddress: String)
    }

    /// What a scan finds; the device reports them strongest first.
    public var networks: [ProtocommWiFiNetwork]
    /// How many "get status" polls after "apply config" still answer `Connecting`.
    public var connectingPolls: Int
    /// How joining ends.
    public var outcome: Outcome
    /// `CONFIG_WIFI_PROV_SCAN_MAX_ENTRIES` (16 on stock firmware).
    public var maximumScanResults: Int
    /// Status polls a non-blocking scan answers "not finished" before it finishes.
    public var scanStatusPollsBeforeFinished: Int
    /// The firmware called `wifi_prov_mgr_disable_auto_stop`: the service survives success and
    /// accepts `reprov`.
    public var allowsReprovisioning: Bool

    /// Defaults: the sample networks, one connecting poll, then connected as 192.168.1.50.
    public init(
        networks: [ProtocommWiFiNetwork] = Self.sampleNetworks,
        connectingPolls: Int = 1,
        outcome: Outcome = .connect(ipAddress: "192.168.1.50"),
        maximumScanResults: Int = 16,
        scanStatusPollsBeforeFinished: Int = 0,
        allowsReprovisioning: Bool = false
    ) {
        self.networks = networks
        self.connectingPolls = connectingPolls
        self.outcome = outcome
        self.maximumScanResults = maximumScanResults
        self.scanStatusPollsBeforeFinished = scanStatusPollsBeforeFinished
        self.allowsReprovisioning = allowsReprovisioning
    }

    /// Six made-up access points with varied channels, strengths and auth modes (one above 7).
    public static let sampleNetworks: [ProtocommWiFiNetwork] = [
        network("HomeNet", channel: 6, rssi: -42, auth: .wpa2PSK, last: 0x01),
        network("Cafe Guest", channel: 1, rssi: -71, auth: .open, last: 0x02),
        network("Neighbour-5G", channel: 36, rssi: -80, auth: .wpa2WPA3PSK, last: 0x03),
        network("Office", channel: 11, rssi: -55, auth: .wpa3PSK, last: 0x04),
        network("IoT-Lab", channel: 3, rssi: -63, auth: .wpa3ExtPSK, last: 0x05),
        network("Printer", channel: 6, rssi: -88, auth: .wpaWPA2PSK, last: 0x06),
    ]

    private static func network(
        _ ssid: String, channel: UInt32, rssi: Int32, auth: ProtocommWiFiAuthMode, last: UInt8
    ) -> ProtocommWiFiNetwork {
        ProtocommWiFiNetwork(
            ssid: Array(ssid.utf8), channel: channel, rssi: rssi, bssid: [0x02, 0x00, 0x5e, 0x10, 0x00, last],
            authMode: auth)
    }
}
