public import Transports

#if canImport(Glibc)
    import Glibc
#endif

/// A failed socket call, with the call's name and the errno it left, in the system's own words.
public struct SocketError: TransportFailure, Equatable {
    /// The call that failed, such as `bind` or `setsockopt(SO_BINDTODEVICE)`.
    public let operation: String
    public let errno: Int32

    public init(_ operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    /// The current thread's errno after `operation` failed.
    static func last(_ operation: String) -> SocketError {
        SocketError(operation, errno: Glibc.errno)
    }

    public var kind: TransportFailureKind {
        switch errno {
        case ENODEV, EADDRNOTAVAIL: .noSuchInterface
        case EPERM, EACCES: .permissionDenied
        case EADDRINUSE: .addressInUse
        case ENETUNREACH, EHOSTUNREACH, ENETDOWN: .unreachable
        case ECONNREFUSED: .refused
        case ETIMEDOUT: .timedOut
        default: .other
        }
    }

    public var detail: String { "\(operation): \(String(cString: strerror(errno))) (errno \(errno))" }
}
