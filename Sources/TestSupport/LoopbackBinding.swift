import Glibc

/// A socket bound to 127.0.0.1 on a port the kernel picked: the start of every loopback test server,
/// and the way to find a port nothing listens on.
public struct LoopbackBinding: Sendable {
    public let descriptor: Int32
    public let port: UInt16

    /// A socket of `type` (`SOCK_STREAM` or `SOCK_DGRAM`, flags such as `SOCK_CLOEXEC` or-ed in), bound.
    public init(type: Int32) throws(LoopbackBindingFailure) {
        let descriptor = socket(AF_INET, type, 0)
        guard descriptor >= 0 else { throw LoopbackBindingFailure(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else {
            let failure = LoopbackBindingFailure(call: "bind", code: errno)
            close(descriptor)
            throw failure
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }
}

/// A socket call that failed while binding a loopback socket, with its errno.
public struct LoopbackBindingFailure: Error, CustomStringConvertible {
    public let call: String
    public let code: Int32

    public var description: String { "\(call): errno \(code)" }
}
