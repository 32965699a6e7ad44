public import Protocomm

/// What a protocomm conversation with a Thread device (network_provisioning, `thread_prov`) asks of it:
/// the network's active dataset, how to secure the session, and whether to list networks first.
public struct ProtocommThreadRequest: Sendable, Equatable {
    /// The active operational dataset the device attaches with; a secret (it holds the network key).
    public var dataset: ThreadDataset
    /// The session's security: automatic from `proto-ver` unless overridden.
    public var security: ProtocommSecurityOptions
    /// Asks the device for the Thread networks it hears before sending the dataset (`thread_scan`).
    public var listsNetworks: Bool

    public init(dataset: ThreadDataset, security: ProtocommSecurityOptions, listsNetworks: Bool = false) {
        self.dataset = dataset
        self.security = security
        self.listsNetworks = listsNetworks
    }

    /// How messages name the network: the dataset's network name, else its extended PAN ID.
    var networkLabel: String {
        let identity = dataset.network
        if let name = identity.name { return name }
        if let extended = identity.extendedPANID {
            return "with extended PAN ID \(extended.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())"
        }
        return "of the dataset"
    }
}
