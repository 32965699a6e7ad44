import NetworkManager
import Provisioning
import Sockets
import Transports

/// The SoftAP flow on real adapters: NetworkManager joins the hotspot, and protocomm runs over HTTP
/// on a socket pinned to the interface the hotspot was joined on.
enum SoftAPWiring {
    /// A provisioner joining with the Wi-Fi device `interface` (the first one when nil).
    static func provisioner(interface: String?) -> SoftAPProvisioner {
        SoftAPProvisioner(joiner: NMSoftAPJoiner(configuration: .init(interfaceName: interface))) { network, device in
            HTTPProtocommTransport(device: device, interface: network.interfaceName)
        }
    }
}
