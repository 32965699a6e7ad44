#if canImport(Glibc)
    import Glibc
#endif

/// Reads interface addresses with getifaddrs, for the subnet broadcast address of the LAN interface.
enum InterfaceAddresses {
    /// The IPv4 broadcast address configured on `interface`, or nil when it has none (loopback,
    /// point-to-point links, or no IPv4 address yet).
    static func broadcastAddress(of interface: String) -> [UInt8]? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let item = entry.pointee
            guard String(cString: item.ifa_name) == interface,
                item.ifa_flags & UInt32(IFF_BROADCAST) != 0,
                let address = item.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                let broadcast = item.ifa_ifu.ifu_broadaddr
            else { continue }
            return broadcast.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
            }
        }
        return nil
    }
}
