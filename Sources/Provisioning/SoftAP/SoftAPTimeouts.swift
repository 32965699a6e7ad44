public import Transports

/// Per-step limits of the SoftAP flow; the whole run is bounded separately by a deadline.
///
/// The official clients (esp_prov, Espressif's iOS and Android libraries) poll the device's status every 5 s
/// with no overall limit. The device starts joining one second after "apply" and usually has an address a few
/// seconds later, so a short poll interval saves most of that wait, and a limit turns a device that retries
/// forever into an answer.
public struct SoftAPTimeouts: Sendable, Equatable {
    /// Deadlines the ``WiFiJoiner`` applies to joining the hotspot and restoring the network.
    public var join: WiFiJoinRequest.Timeouts
    /// One request and its reply (`proto-ver`, each handshake step, "set config", one status poll).
    public var exchange: Duration
    /// The blocking scan request, which the device answers only after scanning every channel.
    public var scan: Duration
    /// From "apply" until the device reports connected or failed.
    public var connect: Duration
    /// The pause before each status poll after "apply".
    public var statusPollInterval: Duration

    public init(
        join: WiFiJoinRequest.Timeouts = WiFiJoinRequest.Timeouts(),
        exchange: Duration = .seconds(10),
        scan: Duration = .seconds(20),
        connect: Duration = .seconds(45),
        statusPollInterval: Duration = .milliseconds(500)
    ) {
        self.join = join
        self.exchange = exchange
        self.scan = scan
        self.connect = connect
        self.statusPollInterval = statusPollInterval
    }
}
