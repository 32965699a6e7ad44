import Provisioning
import Sockets

extension LANOptions {
    /// Opens the LAN socket as asked; the caller closes it.
    func openLink() throws(ProvisioningError) -> UDPDatagramLink {
        do {
            return try UDPDatagramLink(UDPDatagramLink.Configuration(interface: interface, localPort: localPort))
        } catch {
            throw ProvisioningError.lanSocketUnavailable(error, interface: interface, port: localPort)
        }
    }
}
