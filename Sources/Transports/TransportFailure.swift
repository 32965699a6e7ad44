/// An adapter's error as flows need to see it: a kind to choose the user-facing code, and the
/// system's own words for `--verbose`.
///
/// Adapters keep their own error types (``TransportFailure`` is a protocol they conform to), so
/// errno values and library messages survive up to the CLI.
public protocol TransportFailure: Error, Sendable {
    var kind: TransportFailureKind { get }
    /// The cause in the system's words, such as `bind: Address already in use (errno 98)`.
    var detail: String { get }
}

/// What kind of trouble a transport ran into.
public enum TransportFailureKind: Sendable, Equatable {
    /// The named network interface does not exist or has no usable address.
    case noSuchInterface
    /// The operation needs privileges this process lacks.
    case permissionDenied
    /// The local port is taken.
    case addressInUse
    /// No route, host unreachable, or name resolution failed.
    case unreachable
    /// The peer refused the connection.
    case refused
    /// The peer did not answer in time.
    case timedOut
    /// Anything else; the detail says what.
    case other
}
