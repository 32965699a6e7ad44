import Glibc
import Transports

/// A plain blocking UDP socket on 127.0.0.1 for test devices that run on a thread of their own.
///
/// Written against Glibc directly rather than `UDPDatagramLink`: a device served by Swift
/// concurrency stops answering whenever other suites stall this test process's thread pool.
final class LoopbackUDPSocket: @unchecked Sendable {
    private let descriptor: Int32
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard fd >= 0, bound else {
            let failure = LoopbackUDPSocketError(errno: errno)
            close(fd)
            throw failure
        }
        descriptor = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// The next datagram and its sender's port, or nil after 100 ms of silence.
    func receive() -> (bytes: [UInt8], port: UInt16)? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var source = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &source) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(descriptor, bytes.baseAddress, bytes.count, 0, $0, &length)
                }
            }
        }
        guard count >= 0 else { return nil }
        return (Array(buffer.prefix(count)), UInt16(bigEndian: source.sin_port))
    }

    /// Sends to 127.0.0.1 at `port`.
    func send(_ bytes: [UInt8], toPort port: UInt16) {
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        target.sin_port = port.bigEndian
        _ = withUnsafePointer(to: &target) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bytes.withUnsafeBytes {
                    sendto(descriptor, $0.baseAddress, $0.count, 0, address, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    deinit {
        close(descriptor)
    }
}

struct LoopbackUDPSocketError: Error {
    let errno: Int32
}
