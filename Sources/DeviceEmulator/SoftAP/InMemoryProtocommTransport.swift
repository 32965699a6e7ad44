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

    public func exchange(endpoint: String, payload: [UInt8]) async throws -> [UInt8] {
        try Task.checkCancellation()
        return try await device.handle(payload, endpoint: endpoint, connection: connection)
    }
}
