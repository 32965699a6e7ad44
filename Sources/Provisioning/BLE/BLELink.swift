public import Transports

/// The way to a device a BLE provisioning flow runs with: one connection per call, opened with the flow's
/// policy and closed (notifications stopped, link dropped) on every exit path of `body`. A flow that must
/// start over on a fresh link (BluFi's security fallback) calls it again.
public protocol BLELink: Sendable {
    /// The device as its advertisement showed it.
    var peer: BLEPeer { get }

    /// Connects as `policy` asks, runs `body` on the connection and disconnects.
    func connected<Result: Sendable>(
        _ policy: BLEConnectionPolicy, _ body: @Sendable (any GATTConnection) async throws -> Result
    ) async throws -> Result
}

/// A device as a scan heard it.
public struct BLEPeer: Sendable, Hashable {
    public var address: String
    public var name: String?
    /// The service UUIDs it advertised.
    public var serviceUUIDs: [String]
    /// The service data it advertised, by UUID.
    public var serviceData: [String: [UInt8]]

    public init(address: String, name: String?, serviceUUIDs: [String] = [], serviceData: [String: [UInt8]] = [:]) {
        self.address = address
        self.name = name
        self.serviceUUIDs = serviceUUIDs
        self.serviceData = serviceData
    }
}
