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
    /// Has the device scan before the credentials go, and refuses a network it does not hear (`--check-network`).
    public var checksNetwork: Bool
    /// The network does not broadcast its name (`--hidden`): a scan that misses it refuses nothing.
    public var hidden: Bool

    public init(
        network: ProtocommTargetNetwork, security: ProtocommSecurityOptions = ProtocommSecurityOptions(),
        listsNetworks: Bool = false, resetsDeviceAfterFailure: Bool = true, checksNetwork: Bool = false,
        hidden: Bool = false
    ) {
        self.network = network
        self.security = security
        self.listsNetworks = listsNetworks
        self.resetsDeviceAfterFailure = resetsDeviceAfterFailure
        self.checksNetwork = checksNetwork
        self.hidden = hidden
    }

    /// The network as a scan judges it.
    var join: NetworkJoin {
        NetworkJoin(ssid: network.ssid, passwordGiven: !network.passphrase.isEmpty, hidden: hidden)
    }
}
