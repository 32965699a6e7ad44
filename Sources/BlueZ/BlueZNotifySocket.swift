import DBus
import Glibc

/// The socket `AcquireNotify` returns: one `SOCK_SEQPACKET` datagram per notification, read on the loop
/// thread; end of file or a hang-up means BlueZ released it (link lost or notifications stopped).
struct BlueZNotifySocket {
    let fd: Int32
    /// The ATT MTU that came with the socket.
    let mtu: Int
    private let source: Int
    private let loop: DBusLoopExecutor

    /// Starts reading `fd` into `continuation`; loop thread only.
    init(
        fd: Int32, mtu: Int, loop: DBusLoopExecutor,
        continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    ) {
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        self.fd = fd
        self.mtu = mtu
        self.loop = loop
        source = loop.addSource(
            DBusLoopExecutor.Source(
                fd: fd, prepare: { Int16(POLLIN) },
                handle: { _ in BlueZNotifySocket.drain(fd, into: continuation) }))
    }

    /// Stops reading and closes the socket, which releases the notification session in BlueZ.
    func close() {
        loop.removeSource(source)
        _ = Glibc.close(fd)
    }

    /// Reads every queued datagram; returns false once the socket is finished.
    private static func drain(_ fd: Int32, into continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation)
        -> Bool
    {
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count > 0 {
                continuation.yield(Array(buffer[..<count]))
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
                return true
            } else {
                continuation.finish(throwing: BlueZError.linkLost("BlueZ closed the notification socket"))
                return false
            }
        }
    }
}
