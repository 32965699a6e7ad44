import DescriptorWaits
import Logging
import Synchronization
public import Transports

#if canImport(Glibc)
    import Glibc
#endif

/// A ``DatagramLink`` over a UDP/IPv4 socket, optionally pinned to one network interface.
///
/// Pinning (SO_BINDTODEVICE) keeps broadcasts on the LAN the user named, and lets several
/// instances share port 54321 on different interfaces. The socket is non-blocking, and a receive waits in
/// `poll()` on a thread of its own, so a datagram wakes it at once, it never outlives its deadline, and it
/// honours cancellation.
public final class UDPDatagramLink: DatagramLink {
    /// Where the socket listens.
    public struct Configuration: Sendable, Equatable {
        /// The interface to pin to (`eth0`, `wlan0`); nil uses whatever the routing table picks.
        public var interface: String?
        /// 54321 like the apps (devices may answer to that port only); 0 for an ephemeral port.
        public var localPort: UInt16

        public init(interface: String? = nil, localPort: UInt16 = 54321) {
            self.interface = interface
            self.localPort = localPort
        }
    }

    /// The socket, or -1 once closed; locked so `close()` cannot race a read.
    private let descriptor: Mutex<Int32>
    private let subnetBroadcast: [UInt8]?
    private let readiness = SocketReadinessWaiter()

    /// Opens, pins and binds the socket; the caller must ``close()`` it (or use ``withLink(_:_:)``).
    public init(_ configuration: Configuration) throws(SocketError) {
        let fd = socket(
            AF_INET,
            Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
            0
        )
        guard fd >= 0 else { throw .last("socket") }
        do {
            try Self.setUp(fd, configuration)
        } catch {
            Glibc.close(fd)
            throw error
        }
        descriptor = Mutex(fd)
        subnetBroadcast = configuration.interface.flatMap(InterfaceAddresses.broadcastAddress(of:))
    }

    /// Runs `body` with an open link and closes it on every way out, including cancellation.
    public static func withLink<Result>(
        _ configuration: Configuration,
        _ body: (UDPDatagramLink) async throws -> Result
    ) async throws -> Result {
        let link = try UDPDatagramLink(configuration)
        defer { link.close() }
        return try await body(link)
    }

    /// Closes the socket; later calls fail with EBADF.
    public func close() {
        descriptor.withLock { fd in
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }

    /// The address and port the socket is bound to (the ephemeral port, when 0 was asked for).
    public func localEndpoint() throws(SocketError) -> DatagramEndpoint {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = try withDescriptor("getsockname") { fd in
            Int(
                withUnsafeMutablePointer(to: &address) { pointer in
                    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
                }
            )
        }
        return DatagramEndpoint(address)
    }

    /// Runs one system call on the open socket; a negative result becomes a ``SocketError`` with
    /// the errno read right after the call, before anything else can overwrite it.
    func withDescriptor(_ operation: String, _ call: (Int32) -> Int) throws(SocketError) -> Int {
        let (result, error) = descriptor.withLock { fd in
            guard fd >= 0 else { return (-1, EBADF) }
            let result = call(fd)
            return (result, result < 0 ? Glibc.errno : 0)
        }
        guard result >= 0 else { throw SocketError(operation, errno: error) }
        return result
    }

    public func send(_ bytes: [UInt8], to destination: DatagramDestination) async throws {
        Self.log.debug("UDP send \(bytes.count) bytes to \(destination)")
        switch destination {
        case .unicast(let endpoint):
            try sendNow(bytes, to: endpoint)
        case .broadcast(let port):
            try broadcast(bytes, port: port)
        }
    }

    /// The debug log (`-v`): sizes and addresses; never contents, which carry access tokens.
    private static let log = Logger(label: "ztprov.udp")

    public func receive(until deadline: ContinuousClock.Instant) async throws -> Datagram? {
        while true {
            try Task.checkCancellation()
            if let datagram = try receiveNow() {
                Self.log.debug("UDP received \(datagram.bytes.count) bytes from \(datagram.source)")
                return datagram
            }
            // A descriptor closed from now on reads as ready (POLLNVAL), and the next read says EBADF.
            let fd = descriptor.withLock { $0 }
            switch await readiness.wait(for: Int16(POLLIN), on: fd, until: deadline) {
            case .ready: continue
            case .deadlinePassed: return nil
            case .cancelled: throw CancellationError()
            case .pollFailed(let code): throw SocketError("poll", errno: code)
            }
        }
    }

    /// Sends to 255.255.255.255 and to the interface's subnet broadcast; fails only if both fail.
    ///
    /// Some access points and hosts drop the limited broadcast, others the directed one.
    private func broadcast(_ bytes: [UInt8], port: UInt16) throws(SocketError) {
        var targets = [DatagramEndpoint.limitedBroadcast(port: port)]
        if let subnetBroadcast, let directed = DatagramEndpoint(address: subnetBroadcast, port: port),
            directed != targets[0]
        {
            targets.append(directed)
        }
        var firstFailure: SocketError?
        var delivered = false
        for target in targets {
            do {
                try sendNow(bytes, to: target)
                delivered = true
            } catch {
                firstFailure = firstFailure ?? error
            }
        }
        if !delivered, let firstFailure { throw firstFailure }
    }
}
