/// What went wrong on a `TCPConnection`, before the transport adds which request it was serving.
enum TCPConnectionFailure: Error, Equatable {
    /// No connection before the deadline.
    case connectTimedOut
    /// The deadline passed while sending or receiving.
    case transferTimedOut
    /// The task was cancelled while waiting for the socket.
    case cancelled
    /// The peer closed or reset the connection.
    case closedByPeer
    /// `SO_BINDTODEVICE` was refused (no such interface, or not permitted).
    case interfaceBindingFailed(interface: String, errno: Int32)
    /// The connection attempt was refused or could not be routed.
    case connectFailed(errno: Int32)
    /// Any other system call failed.
    case systemCallFailed(String, errno: Int32)
}
