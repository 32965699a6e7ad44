public import BluFi

/// Per-step waits of the BluFi flow; the whole operation is bounded separately by a deadline.
///
/// The device is silent in many failure cases, so every reply has its own bound.
public struct BluFiTimeouts: Sendable, Equatable {
    /// VERSION after GET_VERSION; without it automatic security falls back to V1.
    public var version: Duration
    /// The device's key for V1 (1024-bit DH, fast on every SoC).
    public var keyExchange: Duration
    /// The device's key for V2: ffdhe3072 takes tens of seconds on SoCs without an MPI unit (C2, C61).
    public var keyExchangeV2: Duration
    /// The ACK of SET_OPMODE.
    public var acknowledgement: Duration
    /// The station's join, polled meanwhile; the device retries a few times before it gives up.
    public var wifiJoin: Duration
    /// The report that shows the device's own access point running.
    public var softAPStart: Duration
    /// A one-off WIFI_REPORT.
    public var wifiStatus: Duration
    /// The device's scan; a device that finds nothing never answers, so this is also the empty-list wait.
    public var wifiList: Duration
    /// The device ID the device sends once it joined.
    public var deviceID: Duration
    /// One ATT write with response.
    public var write: Duration
    /// The pause between GET_WIFI_STATUS polls while the join runs (a failed join pushes nothing).
    public var statusPollInterval: Duration
    /// How long a failed flow tries to tell the device to drop the link before giving up on it.
    public var farewell: Duration

    /// The defaults suit a real device; tests pass milliseconds.
    public init(
        version: Duration = .seconds(5),
        keyExchange: Duration = .seconds(20),
        keyExchangeV2: Duration = .seconds(60),
        acknowledgement: Duration = .seconds(5),
        wifiJoin: Duration = .seconds(45),
        softAPStart: Duration = .seconds(10),
        wifiStatus: Duration = .seconds(5),
        wifiList: Duration = .seconds(15),
        deviceID: Duration = .seconds(10),
        write: Duration = .seconds(10),
        statusPollInterval: Duration = .milliseconds(1500),
        farewell: Duration = .seconds(2)
    ) {
        self.version = version
        self.keyExchange = keyExchange
        self.keyExchangeV2 = keyExchangeV2
        self.acknowledgement = acknowledgement
        self.wifiJoin = wifiJoin
        self.softAPStart = softAPStart
        self.wifiStatus = wifiStatus
        self.wifiList = wifiList
        self.deviceID = deviceID
        self.write = write
        self.statusPollInterval = statusPollInterval
        self.farewell = farewell
    }

    /// The wait for `reply`; the key exchange depends on the scheme being negotiated.
    public func timeout(for reply: BluFiAwaitedReply, scheme: BluFiSecurityScheme?) -> Duration {
        switch reply {
        case .version: version
        case .devicePublicKey: scheme == .v2 ? keyExchangeV2 : keyExchange
        case .acknowledgement: acknowledgement
        case .wifiConnection: wifiJoin
        case .softAPStatus: softAPStart
        case .wifiStatus: wifiStatus
        case .wifiList: wifiList
        case .deviceID: deviceID
        }
    }
}
