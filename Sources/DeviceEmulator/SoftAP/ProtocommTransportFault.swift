/// A fault the emulated device's HTTP side plays once, on one request, instead of handling it:
/// the troubles a real SoftAP device and its network cause that the protocomm core cannot.
///
/// Faults the core already plays (a wrong PoP, a network the device cannot join, a missing
/// `prov-ctrl`) come from ``Protocomm/ProtocommDeviceConfiguration`` instead.
public struct ProtocommTransportFault: Sendable, Equatable, CustomStringConvertible {
    /// What happens to the request.
    public enum Action: Sendable, Equatable {
        /// The device closes the connection without answering, as after any handler failure.
        case closeConnection
        /// The device answers 404, as for an endpoint the firmware does not register.
        case notFound
        /// The device never answers; the exchange waits until it is cancelled.
        case hang
        /// Nothing accepts the connection, as when the hotspot or the server went away.
        case refuseConnection
    }

    /// The endpoint name, such as `prov-config`.
    public var endpoint: String
    /// Which request on that endpoint the fault hits, counting from 1.
    public var occurrence: Int
    /// What happens to it.
    public var action: Action

    public init(endpoint: String, occurrence: Int = 1, action: Action) {
        self.endpoint = endpoint
        self.occurrence = occurrence
        self.action = action
    }

    /// E.g. `hang on prov-config #2`.
    public var description: String { "\(action) on \(endpoint) #\(occurrence)" }
}
