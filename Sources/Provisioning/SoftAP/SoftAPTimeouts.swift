public import Transports

/// Per-step limits of the SoftAP flow: the hotspot join and restore, and the protocomm conversation's limits
/// (``ProtocommTimeouts`` says why the status polls start quick); the whole run is bounded by a deadline.
public struct SoftAPTimeouts: Sendable, Equatable {
    /// Deadlines the ``WiFiJoiner`` applies to joining the hotspot and restoring the network.
    public var join: WiFiJoinRequest.Timeouts
    /// One request and its reply (`proto-ver`, each handshake step, "set config", one status poll).
    public var exchange: Duration
    /// The blocking scan request, which the device answers only after scanning every channel.
    public var scan: Duration
    /// From "apply" until the device reports connected or failed.
    public var connect: Duration
    /// The longest pause between status polls after "apply", reached by backing off.
    public var statusPollInterval: Duration
    /// The pause between status polls while most joins finish.
    public var quickStatusPollInterval: Duration
    /// How long after "apply" polls stay quick before backing off.
    public var quickStatusPollWindow: Duration

    public init(
        join: WiFiJoinRequest.Timeouts = WiFiJoinRequest.Timeouts(),
        exchange: Duration = .seconds(10),
        scan: Duration = .seconds(20),
        connect: Duration = .seconds(45),
        statusPollInterval: Duration = .milliseconds(500),
        quickStatusPollInterval: Duration = .milliseconds(100),
        quickStatusPollWindow: Duration = .seconds(3)
    ) {
        self.join = join
        self.exchange = exchange
        self.scan = scan
        self.connect = connect
        self.statusPollInterval = statusPollInterval
        self.quickStatusPollInterval = quickStatusPollInterval
        self.quickStatusPollWindow = quickStatusPollWindow
    }

    /// The limits of the protocomm conversation on the hotspot.
    public var protocomm: ProtocommTimeouts {
        ProtocommTimeouts(
            exchange: exchange, scan: scan, connect: connect, statusPollInterval: statusPollInterval,
            quickStatusPollInterval: quickStatusPollInterval, quickStatusPollWindow: quickStatusPollWindow)
    }
}
