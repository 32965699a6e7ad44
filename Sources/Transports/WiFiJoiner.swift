/// Puts the host on a device's Wi-Fi hotspot for the length of one job, then back on the network it
/// was using before.
///
/// The SoftAP leg needs the device's hotspot only while protocomm runs; a host left on it loses its
/// internet and auto-joins the device later. ``withJoinedNetwork(_:isolation:_:)`` is the way in,
/// because it restores the previous network on success, on error and on cancellation.
public protocol WiFiJoiner: Sendable {
    /// Joins the network and returns once the host has an address on it.
    ///
    /// On any failure, including cancellation, the host is already back where it was when this throws.
    /// Errors describing the network conform to ``WiFiJoinFailure``; cancellation is `CancellationError`.
    func join(_ request: WiFiJoinRequest) async throws -> JoinedWiFiNetwork

    /// Leaves a network joined by ``join(_:)`` and brings back the connection it displaced.
    ///
    /// Runs to the end even when the calling task is already cancelled, since it is the cleanup.
    func leave(_ network: JoinedWiFiNetwork) async throws
}

extension WiFiJoiner {
    /// Joins the network, runs `body` on it, and leaves it again however `body` ends.
    ///
    /// When `body` throws, its error wins over a failure to leave, which would only hide the cause.
    @discardableResult
    public func withJoinedNetwork<Result>(
        _ request: WiFiJoinRequest,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (JoinedWiFiNetwork) async throws -> Result
    ) async throws -> Result {
        let network = try await join(request)
        let result: Result
        do {
            result = try await body(network)
        } catch {
            try? await leave(network)
            throw error
        }
        try await leave(network)
        return result
    }
}
