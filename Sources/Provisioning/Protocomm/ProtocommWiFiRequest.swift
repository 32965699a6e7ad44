/// What a protocomm conversation asks of the device, whichever transport carries it: the network to
/// join, how to secure the session, and the optional steps around the credentials.
public struct ProtocommWiFiRequest: Sendable, Equatable {
    /// The network the device should join.
    public var network: ProtocommTargetNetwork
    /// The session's security: automatic from `proto-ver` unless overridden.
    public var security: ProtocommSecurityOptions
    /// Asks the device for the networks it sees before sending the credentials.
    public var listsNetworks: Bool
    /// After the device fails to join, sends `prov-ctrl` reset (ESP-IDF 5.1 and later) so the
    /// device accepts new credentials without a power cycle.
    public var resetsDeviceAfterFailure: Bool

    public init(
        network: ProtocommTargetNetwork, security: ProtocommSecurityOptions = ProtocommSecurityOptions(),
        listsNetworks: Bool = false, resetsDeviceAfterFailure: Bool = true
    ) {
        self.network = network
        self.security = security
        self.listsNetworks = listsNetworks
        self.resetsDeviceAfterFailure = resetsDeviceAfterFailure
    }
}
