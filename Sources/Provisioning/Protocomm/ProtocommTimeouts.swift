/// Per-request and per-step limits of a protocomm conversation; the whole run is bounded by a deadline.
///
/// The official clients (esp_prov, Espressif's iOS and Android libraries) poll the device's status every 5 s
/// with no overall limit. The device starts joining one second after "apply" and usually has an address a few
/// seconds later, so quick polls while most joins finish save most of that wait (a connected device waits at
/// most one quick interval), polls that back off spare a device that takes longer, and a limit turns a device
/// that retries forever into an answer.
public struct ProtocommTimeouts: Sendable, Equatable {
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
        exchange: Duration = .seconds(10),
        scan: Duration = .seconds(20),
        connect: Duration = .seconds(45),
        statusPollInterval: Duration = .milliseconds(500),
        quickStatusPollInterval: Duration = .milliseconds(100),
        quickStatusPollWindow: Duration = .seconds(3)
    ) {
        self.exchange = exchange
        self.scan = scan
        self.connect = connect
        self.statusPollInterval = statusPollInterval
        self.quickStatusPollInterval = quickStatusPollInterval
        self.quickStatusPollWindow = quickStatusPollWindow
    }

    /// The pause before the next status poll, `sinceApply` after "apply", the last pause having been
    /// `previous` (nil before the first poll): quick within the window, then half as long again each
    /// poll, never above ``statusPollInterval``.
    public func statusPollPause(sinceApply: Duration, previous: Duration?) -> Duration {
        let quick = min(quickStatusPollInterval, statusPollInterval)
        guard let previous, sinceApply >= quickStatusPollWindow else { return quick }
        return min(max(previous * 3 / 2, quick), statusPollInterval)
    }
}
