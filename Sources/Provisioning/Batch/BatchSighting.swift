/// One advertisement a lane's radio heard while the batch ran: which unit, and how strongly.
public struct BatchSighting: Sendable, Equatable {
    /// The lane (adapter) that heard it.
    public var lane: String
    public var address: String
    /// The advertised name, if the advertisement carried one.
    public var name: String?
    /// Signal strength in dBm, when the radio reported it.
    public var rssi: Int?

    public init(lane: String, address: String, name: String? = nil, rssi: Int? = nil) {
        self.lane = lane
        self.address = address.uppercased()
        self.name = name
        self.rssi = rssi
    }
}

/// Keeps a lane's discovery running while the lane works: `heard` takes every advertisement the lane's radio
/// reports, `work` is the lane's whole loop, and the scope stops discovery when `work` returns, on every path.
///
/// Throws (a ``ProvisioningError``) when discovery cannot start; the lane then stops without taking a unit.
public typealias BatchLaneScope =
    @Sendable (
        _ lane: String, _ heard: @escaping @Sendable (BatchSighting) async -> Void, _ work: () async -> Void
    ) async throws -> Void
