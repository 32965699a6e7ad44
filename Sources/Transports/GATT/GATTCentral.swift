/// The central side of a Bluetooth stack: connects to a peripheral it found and scopes the connection.
///
/// An actor, so a scope's body may capture the caller's state as a call to a concrete stack can.
public protocol GATTCentral: Actor {
    /// What the stack's scan returns and connects to.
    associatedtype Peripheral: Sendable

    /// Connects to `peripheral`, discovers its services, checks that every service in `services` is
    /// there, runs `body`, and disconnects on every exit path (notifications stopped, link released),
    /// task cancellation included.
    func withConnection<Result>(
        to peripheral: Peripheral, requiring services: [String],
        _ body: (any GATTConnection) async throws -> Result
    ) async throws -> Result
}
