import Logging
import Transports

/// A ``DatagramLink`` whose failures arrive as ``ProvisioningError``s, shared by the LAN flows.
struct LANChannel: Sendable {
    let link: any DatagramLink
    let logger: Logger

    func send(_ bytes: [UInt8], to destination: DatagramDestination, what: String) async throws(ProvisioningError) {
        logger.debug("sending \(what) to \(destination) (\(bytes.count) bytes)")
        do {
            try await link.send(bytes, to: destination)
        } catch {
            throw ProvisioningError.lanTransport(error, while: "sending the \(what) to \(destination)")
        }
    }

    func receive(until deadline: ContinuousClock.Instant) async throws(ProvisioningError) -> Datagram? {
        do {
            return try await link.receive(until: deadline)
        } catch {
            throw ProvisioningError.lanTransport(error, while: "receiving on the LAN socket")
        }
    }
}
