import DescriptorWaits
import Glibc
import Transports

/// A non-blocking TCP socket whose every wait is a `poll()` bounded by a deadline and by task cancellation.
///
/// Owned by one actor at a time, so it needs no locking; closing happens when the last reference goes.
final class TCPConnection {
    private let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Connects to `device`, optionally through one network interface only, before `deadline`.
    static func open(
        to device: DeviceEndpoint,
        interface: String?,
        until deadline: ContinuousClock.Instant
    ) throws(TCPConnectionFailure) -> TCPConnection {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = socket(AF_INET, type, 0)
        guard descriptor >= 0 else { throw .systemCallFailed("socket", errno: errno) }
        let connection = TCPConnection(descriptor: descriptor)
        if let interface {
            try connection.bind(toInterface: interface)
        }
        try connection.connect(to: device, until: deadline)
        return connection
    }

    /// Sends every byte before `deadline`.
    func send(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(TCPConnectionFailure) {
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if result >= 0 {
                sent += result
                continue
            }
            let code = errno
            switch code {
            case EAGAIN, EWOULDBLOCK, EINTR: try wait(for: Int16(POLLOUT), until: deadline, orThrow: .transferTimedOut)
            case EPIPE, ECONNRESET: throw .closedByPeer
            default: throw .systemCallFailed("send", errno: code)
            }
        }
    }

    /// Returns the next bytes that arrive before `deadline`; throws `.closedByPeer` at end of stream.
    func receive(until deadline: ContinuousClock.Instant) throws(TCPConnectionFailure) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let result = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if result > 0 { return Array(chunk[..<result]) }
            if result == 0 { throw .closedByPeer }
            let code = errno
            switch code {
            case EAGAIN, EWOULDBLOCK, EINTR: try wait(for: Int16(POLLIN), until: deadline, orThrow: .transferTimedOut)
            case ECONNRESET: throw .closedByPeer
            default: throw .systemCallFailed("recv", errno: code)
            }
        }
    }

    /// What an idle keep-alive connection looks like right now, without consuming anything.
    func idleState() -> IdleState {
        var byte: UInt8 = 0
        let result = recv(descriptor, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if result > 0 { return .unsolicitedBytes }
        if result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .open }
        return .closedByPeer
    }

    /// The states `idleState()` tells apart.
    enum IdleState {
        case open
        case closedByPeer
        case unsolicitedBytes
    }

    private func bind(toInterface interface: String) throws(TCPConnectionFailure) {
        let result = interface.withCString { name in
            setsockopt(descriptor, SOL_SOCKET, SO_BINDTODEVICE, name, socklen_t(strlen(name)))
        }
        guard result == 0 else { throw .interfaceBindingFailed(interface: interface, errno: errno) }
    }

    private func connect(to device: DeviceEndpoint, until deadline: ContinuousClock.Instant)
        throws(TCPConnectionFailure)
    {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = device.port.bigEndian
        address.sin_addr.s_addr = device.octets.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }.bigEndian
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result == 0 { return }
        guard errno == EINPROGRESS else { throw .connectFailed(errno: errno) }
        try wait(for: Int16(POLLOUT), until: deadline, orThrow: .connectTimedOut)
        var pending: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &pending, &length) == 0 else {
            throw .systemCallFailed("getsockopt", errno: errno)
        }
        guard pending == 0 else { throw .connectFailed(errno: pending) }
    }

    /// Waits until the socket is ready for `events`, the deadline passes or the task is cancelled.
    func wait(
        for events: Int16,
        until deadline: ContinuousClock.Instant,
        orThrow timeout: TCPConnectionFailure
    ) throws(TCPConnectionFailure) {
        switch DescriptorReadiness.wait(for: events, on: descriptor, until: deadline) {
        case .ready: return
        case .deadlinePassed: throw timeout
        case .cancelled: throw .cancelled
        case .pollFailed(let code): throw .systemCallFailed("poll", errno: code)
        }
    }
}
