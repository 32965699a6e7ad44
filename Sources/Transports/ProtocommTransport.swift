/// Carries one protocomm request to the device and brings back its reply: esp_prov's `send_data`, typed.
///
/// Implementations send requests strictly one at a time, because the device keeps a single security
/// session and binds it to one connection or one cookie (`protocomm_httpd.c`). They throw their own
/// error types, keeping the system's words; the provisioning flow maps those to what a person reads.
public protocol ProtocommTransport: Sendable {
    /// Sends `payload` to the named endpoint (`"proto-ver"`, `"prov-session"`, `"prov-config"`, …) and
    /// returns the reply body, by the caller's deadline; throws ``DeadlineExceeded`` when it passes first.
    ///
    /// The payload is already encrypted where the session requires it; transports never look inside.
    func exchange(endpoint: String, payload: [UInt8], until deadline: ContinuousClock.Instant) async throws -> [UInt8]

    /// Whether the link under the exchanges is encrypted by itself (a paired BLE link), for the security
    /// audit; read after the first exchange.
    var isLinkEncrypted: Bool { get async }
}

extension ProtocommTransport {
    /// A transport that cannot tell (HTTP on a device's hotspot) reports a plain link.
    public var isLinkEncrypted: Bool { get async { false } }
}
