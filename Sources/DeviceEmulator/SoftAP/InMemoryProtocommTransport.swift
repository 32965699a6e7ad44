public import Transports

/// One client connection to an ``EmulatedProtocommDevice``: the in-memory ``ProtocommTransport``
/// that `ztprov demo` and the flow tests use where a real run uses HTTP.
///
/// Failures arrive as ``InMemoryProtocommTransportError``, sorted into the same kinds as the HTTP
/// transport's; cancellation arrives as `CancellationError`.
public struct InMemoryProtocommTransport: ProtocommTransport {
    /// The device at the far end.
    public let device: EmulatedProtocommDevice
    let connection: Int

    /// The device's faults may stall an exchange; the caller's deadline ends it.
    public func exchange(endpoint: String, payload: [UInt8], until deadline: ContinuousClock.Instant) async throws
        -> [UInt8]
    {
        try Task.checkCancellation()
        let (device, connection) = (device, connection)
        return try await withDeadline(deadline, "protocomm exchange") {
            try await device.handle(payload, endpoint: endpoint, connection: connection)
        }
    }
}
