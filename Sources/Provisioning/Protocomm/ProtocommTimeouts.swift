/// Per-request and per-step limits of a protocomm conversation; the whole run is bounded by a deadline.
public struct ProtocommTimeouts: Sendable, Equatable {
    /// One request and its reply (`proto-ver`, each handshake step, "set config", one status poll).
    public var exchange: Duration
    /// The blocking scan request, which the device answers only after scanning every channel.
    public var scan: Duration
    /// From "apply" until the device reports connected or failed.
    public var connect: Duration
    /// The pause before each status poll after "apply".
    public var statusPollInterval: Duration

    public init(exchange: Duration, scan: Duration, connect: Duration, statusPollInterval: Duration) {
        self.exchange = exchange
        self.scan = scan
        self.connect = connect
        self.statusPollInterval = statusPollInterval
    }
}
