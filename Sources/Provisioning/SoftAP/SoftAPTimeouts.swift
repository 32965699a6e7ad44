public import Transports

/// Per-step limits of the SoftAP flow: the hotspot join and restore, and the protocomm conversation's limits
/// (``ProtocommTimeouts`` says why the status polls start quick); the whole run is bounded by a deadline.
public struct SoftAPTimeouts: Sendable, Equatable {
    /// Deadlines the ``WiFiJoiner`` applies to joining the hotspot and restoring the network.
    public var join: WiFiJoinRequest.Timeouts
    /// The limits of the protocomm conversation on the hotspot.
    public var protocomm: ProtocommTimeouts

    public init(
        join: WiFiJoinRequest.Timeouts = WiFiJoinRequest.Timeouts(),
        protocomm: ProtocommTimeouts = ProtocommTimeouts()
    ) {
        self.join = join
        self.protocomm = protocomm
    }
}
