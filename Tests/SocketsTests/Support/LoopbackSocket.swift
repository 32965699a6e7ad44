import Foundation
import Glibc
import TestSupport
import Transports

/// The few blocking socket calls the loopback test servers need.
enum LoopbackSocket {
    struct Failure: Error {
        let call: String
        let code: Int32
    }

    /// How long a server thread sleeps in one poll before it looks at its stop flag again.
    static let pollMilliseconds: Int32 = 50

    /// A listening TCP socket on 127.0.0.1 with an ephemeral port.
    static func listen(backlog: Int32) throws -> Int32 {
        let descriptor: Int32
        do {
            descriptor = try LoopbackBinding(type: Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
                .descriptor
        } catch {
            throw Failure(call: error.call, code: error.code)
        }
        guard Glibc.listen(descriptor, backlog) == 0 else {
            let failure = Failure(call: "listen", code: errno)
            close(descriptor)
            throw failure
        }
        return descriptor
    }

    static func port(of descriptor: Int32) throws -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { throw Failure(call: "getsockname", code: errno) }
        return UInt16(bigEndian: address.sin_port)
    }

    /// A blocking client connection, for tests that need the listener's queue occupied.
    static func connect(to device: DeviceEndpoint) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        var address = loopbackAddress(port: device.port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let failure = Failure(call: "connect", code: errno)
            close(descriptor)
            throw failure
        }
        return descriptor
    }

    static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Whether the socket became readable within one poll interval.
    static func waitReadable(_ descriptor: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, pollMilliseconds) > 0
    }

    /// Whether the peer acknowledged everything written (the send queue, `SIOCOUTQ`, is empty) before the
    /// server stopped: acknowledged bytes sit in the peer's receive queue.
    static func waitUntilAcknowledged(_ descriptor: Int32, isStopped: () -> Bool) -> Bool {
        let sendQueueSize: UInt = 0x5411  // SIOCOUTQ (TIOCOUTQ)
        var unacknowledged: Int32 = 1
        while !isStopped() {
            guard ioctl(descriptor, sendQueueSize, &unacknowledged) == 0 else { return false }
            if unacknowledged == 0 { return true }
            usleep(1000)
        }
        return false
    }

    /// Writes all bytes, ignoring a peer that went away: the test then sees that on its side.
    static func write(_ bytes: [UInt8], to descriptor: Int32) {
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard result > 0 else { return }
            sent += result
        }
    }
}

/// Reads HTTP requests with `Content-Length` bodies off one blocking socket.
struct LoopbackRequestReader {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next request's head lines and body, or nil once the client closed or the server stops.
    mutating func nextRequest(isStopped: () -> Bool) -> (head: [String], body: [UInt8])? {
        let terminator = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while true {
            if headEnd == nil, let found = firstRange(of: terminator) {
                headEnd = found
            }
            if let headEnd {
                let head = String(decoding: buffer[..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
                let length = head.compactMap(Self.contentLength).first ?? 0
                let bodyStart = headEnd + terminator.count
                if buffer.count - bodyStart >= length {
                    let body = Array(buffer[bodyStart..<bodyStart + length])
                    buffer.removeFirst(bodyStart + length)
                    return (head, body)
                }
            }
            guard !isStopped() else { return nil }
            guard LoopbackSocket.waitReadable(descriptor) else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
    }

    private func firstRange(of needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        return (0...buffer.count - needle.count).first { buffer[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    private static func contentLength(_ line: String) -> Int? {
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
        return Int(parts[1].trimmingCharacters(in: .whitespaces))
    }
}
