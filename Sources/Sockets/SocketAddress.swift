import Transports

#if canImport(Glibc)
    import Glibc
#endif

/// Conversions between ``DatagramEndpoint`` and the C `sockaddr_in` the socket calls take.
extension DatagramEndpoint {
    /// The limited broadcast address 255.255.255.255 at `port`.
    static func limitedBroadcast(port: UInt16) -> DatagramEndpoint {
        DatagramEndpoint(address: [255, 255, 255, 255], port: port)!
    }

    init(_ address: sockaddr_in) {
        let bytes = withUnsafeBytes(of: address.sin_addr) { Array($0) }
        self.init(address: bytes, port: UInt16(bigEndian: address.sin_port))!
    }

    var socketAddress: sockaddr_in {
        var result = sockaddr_in()
        result.sin_family = sa_family_t(AF_INET)
        result.sin_port = port.bigEndian
        withUnsafeMutableBytes(of: &result.sin_addr) { $0.copyBytes(from: address) }
        return result
    }
}

/// Calls `body` with `address` viewed as the generic `sockaddr` the socket API wants.
func withSocketAddress<Result>(
    _ address: sockaddr_in,
    _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
) -> Result {
    withUnsafePointer(to: address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
}
