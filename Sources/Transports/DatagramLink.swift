/// A datagram socket as flows see it: send to an address, receive with a deadline.
///
/// Implemented over UDP by `Sockets` and in memory by `DeviceEmulator`. Errors from the real
/// implementation conform to ``TransportFailure``; cancellation surfaces as `CancellationError`.
public protocol DatagramLink: Sendable {
    /// Sends one datagram.
    func send(_ bytes: [UInt8], to destination: DatagramDestination) async throws

    /// The next datagram to arrive, or nil once `deadline` passes without one.
    func receive(until deadline: ContinuousClock.Instant) async throws -> Datagram?
}
