import Glibc
import Transports

/// One address of a host as `getaddrinfo` gave it: a `sockaddr_in` or `sockaddr_in6`, as bytes.
struct HostAddress {
    let family: Int32
    let bytes: [UInt8]
}

extension TCPConnection {
    /// The IPv4 and IPv6 addresses of `host` (a name or an address literal) at `port`.
    ///
    /// `getaddrinfo` blocks for as long as the resolver's own timeouts allow (resolv.conf), so callers
    /// run it on a thread of their own.
    static func addresses(of host: String, port: UInt16) throws(HTTPExchangeError) -> [HostAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw HTTPExchangeError(
                kind: .unreachable, detail: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [HostAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            if let address = current.pointee.ai_addr {
                let bytes = UnsafeRawBufferPointer(start: address, count: Int(current.pointee.ai_addrlen))
                addresses.append(HostAddress(family: current.pointee.ai_family, bytes: Array(bytes)))
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }

    /// Connects to the first of `addresses` that accepts before `deadline`; the last failure otherwise.
    static func open(toAnyOf addresses: [HostAddress], until deadline: ContinuousClock.Instant)
        throws(TCPConnectionFailure) -> TCPConnection
    {
        var failure = TCPConnectionFailure.connectFailed(errno: EHOSTUNREACH)
        for address in addresses {
            do {
                return try open(to: address, until: deadline)
            } catch .connectTimedOut {
                throw .connectTimedOut
            } catch .cancelled {
                throw .cancelled
            } catch {
                failure = error
            }
        }
        throw failure
    }

    private static func open(to address: HostAddress, until deadline: ContinuousClock.Instant)
        throws(TCPConnectionFailure) -> TCPConnection
    {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = socket(address.family, type, 0)
        guard descriptor >= 0 else { throw .systemCallFailed("socket", errno: errno) }
        let connection = TCPConnection(descriptor: descriptor)
        let result = address.bytes.withUnsafeBytes {
            Glibc.connect(descriptor, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
        }
        if result == 0 { return connection }
        guard errno == EINPROGRESS else { throw .connectFailed(errno: errno) }
        try connection.wait(for: Int16(POLLOUT), until: deadline, orThrow: .connectTimedOut)
        var pending: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &pending, &length) == 0 else {
            throw .systemCallFailed("getsockopt", errno: errno)
        }
        guard pending == 0 else { throw .connectFailed(errno: pending) }
        return connection
    }
}
