import Foundation
import Glibc
import Synchronization
import TestSupport
import Transports

/// A scripted HTTP server on 127.0.0.1 for the transport's loopback tests.
///
/// Like the device it serves one connection at a time and reads one request at a time; for each
/// request the test's script decides what happens next. It records every request it read.
final class LoopbackHTTPServer: Sendable {
    /// One request as the server read it.
    struct Request: Sendable {
        /// The order in which the server read this request, counted from 0 across connections.
        let index: Int
        /// Which accepted connection carried it, counted from 0.
        let connection: Int
        let requestLine: String
        let headerLines: [String]
        let body: [UInt8]

        func values(of name: String) -> [String] {
            headerLines.compactMap { line in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].lowercased() == name.lowercased() else { return nil }
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
    }

    /// What the server does after reading a request.
    enum Reply: Sendable {
        case respond([UInt8])
        case respondAndClose([UInt8])
        /// Answers, then sends `extra` on the idle connection once the test calls ``releaseExtra()``.
        case respondThenSend([UInt8], extra: [UInt8])
        case closeWithoutResponse
        /// Never answers; keeps reading until the client goes away.
        case stayQuiet
    }

    private struct State {
        var requests: [Request] = []
        var connections = 0
        var stopped = false
    }

    let endpoint: DeviceEndpoint
    private let listener: Int32
    private let state = Mutex(State())
    private let script: @Sendable (Request) -> Reply
    private let extraReleased = DispatchSemaphore(value: 0)
    private let extraDelivered = DispatchSemaphore(value: 0)

    /// Starts listening on an ephemeral port and serving on a thread of its own.
    init(script: @escaping @Sendable (Request) -> Reply) throws {
        listener = try LoopbackSocket.listen(backlog: 4)
        endpoint = DeviceEndpoint(127, 0, 0, 1, port: try LoopbackSocket.port(of: listener))
        self.script = script
        Thread { [self] in serve() }.start()
    }

    var requests: [Request] { state.withLock { $0.requests } }
    var connectionCount: Int { state.withLock { $0.connections } }

    /// Ends the serving thread within one poll interval; it closes its sockets on the way out.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Lets a `respondThenSend` reply send its extra bytes.
    func releaseExtra() {
        extraReleased.signal()
    }

    /// Whether the extra bytes reached the client's socket (its kernel acknowledged them) within a
    /// generous hang guard.
    func extraReachedTheClient() async throws -> Bool {
        try await onOwnThread { self.extraDelivered.wait(timeout: .now() + 20) == .success }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func serve() {
        defer { close(listener) }
        while !isStopped {
            guard LoopbackSocket.waitReadable(listener), !isStopped else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let index = state.withLock { state in
                defer { state.connections += 1 }
                return state.connections
            }
            serve(connection, index: index)
            close(connection)
        }
    }

    private func serve(_ connection: Int32, index: Int) {
        var reader = LoopbackRequestReader(descriptor: connection)
        while !isStopped, let (head, body) = reader.nextRequest(isStopped: { self.isStopped }) {
            let request = state.withLock { state in
                let request = Request(
                    index: state.requests.count, connection: index, requestLine: head[0],
                    headerLines: Array(head.dropFirst()), body: body)
                state.requests.append(request)
                return request
            }
            switch script(request) {
            case .respond(let bytes): LoopbackSocket.write(bytes, to: connection)
            case .respondAndClose(let bytes):
                LoopbackSocket.write(bytes, to: connection)
                return
            case .respondThenSend(let bytes, let extra):
                LoopbackSocket.write(bytes, to: connection)
                while !isStopped, extraReleased.wait(timeout: .now() + 0.1) == .timedOut {}
                LoopbackSocket.write(extra, to: connection)
                if LoopbackSocket.waitUntilAcknowledged(connection, isStopped: { self.isStopped }) {
                    extraDelivered.signal()
                }
            case .closeWithoutResponse: return
            case .stayQuiet: continue
            }
        }
    }

    /// A complete response with `Content-Length`, in esp_http_server's layout.
    static func response(
        _ status: String = "200 OK",
        headers: [String] = [],
        body: [UInt8] = Array("reply".utf8),
        version: String = "HTTP/1.1"
    ) -> [UInt8] {
        let lines = ["\(version) \(status)", "Content-Type: text/html", "Content-Length: \(body.count)"] + headers
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
    }
}
