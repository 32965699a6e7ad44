import Glibc
import TestSupport
import Transports

/// A plain blocking UDP socket on 127.0.0.1 for test devices that run on a thread of their own.
///
/// Written against Glibc directly rather than `UDPDatagramLink`: a device served by Swift
/// concurrency stops answering whenever other suites stall this test process's thread pool.
final class LoopbackUDPSocket: @unchecked Sendable {
    private let descriptor: Int32
    let port: UInt16

    init() throws {
        let binding = try LoopbackBinding(type: Int32(SOCK_DGRAM.rawValue))
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(binding.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        descriptor = binding.descriptor
        port = binding.port
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
