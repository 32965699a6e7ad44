import Foundation
import Glibc
import TestSupport

/// A Unix socket that takes every connection and never says a word: a wedged dbus-daemon, as far as a
/// client can tell. Connections are accepted and held until ``close()``.
final class SilentBus: @unchecked Sendable {
    let path: String
    private let listener: Int32
    private let lock = NSLock()
    private var accepted: [Int32] = []
    /// Run on the accepting thread once there are more connections than the count it was armed with.
    private var onConnection: (after: Int, action: @Sendable () -> Void)?

    /// `DBUS_SYSTEM_BUS_ADDRESS` for it.
    var address: String { "unix:path=\(path)" }

    init(in directory: URL) throws {
        path = directory.appending(path: "silent-bus").path
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listener, 64) == 0 else {
            _ = Glibc.close(listener)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                let action = lock.withLock { () -> (@Sendable () -> Void)? in
                    accepted.append(client)
                    guard let armed = onConnection, accepted.count > armed.after else { return nil }
                    onConnection = nil
                    return armed.action
                }
                action?()
            }
        }
    }

    /// How many clients connected so far.
    var connections: Int { lock.withLock { accepted.count } }

    /// Runs `action` on the accepting thread as soon as there are more than `count` connections (at once if
    /// there already are): a test process whose cooperative threads are busy cannot then act seconds late.
    func whenConnections(exceed count: Int, _ action: @escaping @Sendable () -> Void) {
        let now = lock.withLock { () -> Bool in
            guard accepted.count <= count else { return true }
            onConnection = (count, action)
            return false
        }
        if now { action() }
    }

    func close() {
        _ = shutdown(listener, Int32(SHUT_RDWR))
        _ = Glibc.close(listener)
        lock.withLock {
            for client in accepted { _ = Glibc.close(client) }
            accepted.removeAll()
        }
    }
}
