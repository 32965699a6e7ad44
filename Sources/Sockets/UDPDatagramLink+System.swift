import Transports

#if canImport(Glibc)
    import Glibc
#endif

/// The socket calls themselves, kept apart from the link's policy.
extension UDPDatagramLink {
    /// Largest UDP payload over IPv4; a buffer this size never truncates a datagram.
    static let receiveBufferSize = 65_507

    static func setUp(_ fd: Int32, _ configuration: Configuration) throws(SocketError) {
        // Pin before bind: the kernel then lets instances on different interfaces share the port.
        if let interface = configuration.interface {
            let name = Array(interface.utf8CString)
            let result = name.withUnsafeBytes {
                setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, $0.baseAddress, socklen_t($0.count))
            }
            guard result == 0 else { throw .last("setsockopt(SO_BINDTODEVICE, \(interface))") }
        }
        // No SO_REUSEADDR/SO_REUSEPORT, unlike the apps: a second process on the same port would
        // silently receive some of our replies. A clear "address in use" is better.
        var enabled: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &enabled, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw .last("setsockopt(SO_BROADCAST)")
        }
        let any = DatagramEndpoint(address: [0, 0, 0, 0], port: configuration.localPort)!
        guard withSocketAddress(any.socketAddress, { bind(fd, $0, $1) }) == 0 else {
            throw .last("bind(port \(configuration.localPort))")
        }
    }

    func sendNow(_ bytes: [UInt8], to endpoint: DatagramEndpoint) throws(SocketError) {
        _ = try withDescriptor("sendto(\(endpoint))") { fd in
            withSocketAddress(endpoint.socketAddress) { address, length in
                bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, length) }
            }
        }
    }

    /// One datagram if one is queued, nil when none is (EAGAIN).
    func receiveNow() throws(SocketError) -> Datagram? {
        var buffer = [UInt8](repeating: 0, count: Self.receiveBufferSize)
        var source = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count: Int
        do {
            count = try withDescriptor("recvfrom") { fd in
                buffer.withUnsafeMutableBytes { bytes in
                    withUnsafeMutablePointer(to: &source) { pointer in
                        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            recvfrom(fd, bytes.baseAddress, bytes.count, 0, $0, &length)
                        }
                    }
                }
            }
        } catch  where [EAGAIN, EWOULDBLOCK, EINTR].contains(error.errno) {
            return nil
        }
        return Datagram(bytes: Array(buffer.prefix(count)), source: DatagramEndpoint(source))
    }
}
