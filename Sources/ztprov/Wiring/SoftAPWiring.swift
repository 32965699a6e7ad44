import NetworkManager
import Provisioning
import Sockets
import Transports

/// The SoftAP flow on real adapters: NetworkManager joins the hotspot, and protocomm runs over HTTP
/// on a socket pinned to the interface the hotspot was joined on.
enum SoftAPWiring {
    /// A provisioner joining with the Wi-Fi device `interface` (the first one when nil).
    ///
    /// Throws when this host cannot load libnm, which only this path needs.
    static func provisioner(interface: String?) throws(ProvisioningError) -> SoftAPProvisioner {
        let joiner: NMSoftAPJoiner
        do {
            joiner = try NMSoftAPJoiner(configuration: .init(interfaceName: interface))
        } catch {
            throw ProvisioningError(
                .networkServiceUnavailable, "NetworkManager's client library libnm cannot be loaded.",
                hint: "Install it (`apt install libnm0`); ztprov joins hotspots through it.", detail: "\(error)")
        }
        return SoftAPProvisioner(joiner: joiner) { network, device in
            HTTPProtocommTransport(device: device, interface: network.interfaceName)
        }
    }
}
