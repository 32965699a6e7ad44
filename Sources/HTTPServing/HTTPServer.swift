import NIOCore
import NIOHTTP1
import NIOPosix
import Transports

/// A small HTTP/1.1 server on SwiftNIO: each request is answered whole by an async handler, then the
/// connection closes (clients here are a browser page and a metrics scraper, a handful of requests a second).
///
/// It runs until its task is cancelled; then it stops listening, cancels the handlers still running
/// (a long-polling page waits in one) and returns once its event loop has shut down.
public enum HTTPServer {
    /// The most bytes of a request body the server reads; its handlers take no body.
    static let maximumBodyBytes = 16 * 1024

    /// Listens on `host`:`port` (port 0: one the system picks), calls `listening` with the address it got,
    /// and answers every request with `handler`.
    public static func serve(
        host: String, port: Int, listening: @Sendable (_ host: String, _ port: Int) -> Void,
        handler: @escaping @Sendable (HTTPServerRequest) async -> HTTPServerResponse
    ) async throws(HTTPServingError) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let outcome = await run(on: group, host: host, port: port, listening: listening, handler: handler)
        try? await group.shutdownGracefully()
        try outcome.get()
    }

    private static func run(
        on group: MultiThreadedEventLoopGroup, host: String, port: Int,
        listening: @Sendable (_ host: String, _ port: Int) -> Void,
        handler: @escaping @Sendable (HTTPServerRequest) async -> HTTPServerResponse
    ) async -> Result<Void, HTTPServingError> {
        let server: NIOAsyncChannel<NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>, Never>
        do {
            server = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .bind(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        return try NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>(
                            wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            return .failure(HTTPServingError("cannot listen on \(host):\(port): \(error)"))
        }
        listening(server.channel.localAddress?.ipAddress ?? host, server.channel.localAddress?.port ?? port)
        do {
            try await withThrowingDiscardingTaskGroup { connections in
                try await server.executeThenClose { inbound in
                    for try await connection in inbound {
                        connections.addTask { await answer(connection, with: handler) }
                    }
                }
            }
            return .success(())
        } catch {
            if Task.isCancelled || error is CancellationError { return .success(()) }
            return .failure(HTTPServingError("the server stopped: \(error)"))
        }
    }

    /// Reads one request from `connection`, writes the handler's answer whole and closes the connection.
    private static func answer(
        _ connection: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>,
        with handler: @Sendable (HTTPServerRequest) async -> HTTPServerResponse
    ) async {
        try? await connection.executeThenClose { inbound, outbound in
            guard let head = try await request(from: inbound, within: requestWait) else { return }
            let response = await handler(HTTPServerRequest(method: "\(head.method)", target: head.uri))
            try await write(response, to: outbound, version: head.version, withBody: head.method != .HEAD)
            // Closing at once would drop what the socket has not taken yet (a large answer to a slow reader);
            // closing the output first waits for every byte to be written.
            try await connection.channel.close(mode: .output)
        }
    }

    /// How long a client has to send its whole request. A connection that sends nothing (or a byte now and
    /// then) is closed after it, so idle sockets cannot hold the descriptors the server needs to accept more.
    static let requestWait: Duration = .seconds(10)

    /// The request's head once its end arrived; nil when the client closed first, sent more body than the
    /// server reads, or took longer than `wait`.
    private static func request(
        from inbound: NIOAsyncChannelInboundStream<HTTPServerRequestPart>, within wait: Duration
    ) async throws -> HTTPRequestHead? {
        do {
            return try await withDeadline(.now + wait, "an HTTP request") {
                var head: HTTPRequestHead?
                var bodyBytes = 0
                for try await part in inbound {
                    switch part {
                    case .head(let received):
                        head = received
                    case .body(let chunk):
                        bodyBytes += chunk.readableBytes
                        if bodyBytes > maximumBodyBytes { return nil }
                    case .end:
                        return head
                    }
                }
                return nil
            }
        } catch is DeadlineExceeded {
            return nil
        }
    }

    private static func write(
        _ response: HTTPServerResponse, to outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>,
        version: HTTPVersion, withBody: Bool
    ) async throws {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: response.contentType)
        headers.add(name: "Content-Length", value: "\(response.body.count)")
        headers.add(name: "Connection", value: "close")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
            headers.add(name: name, value: value)
        }
        try await outbound.write(
            .head(
                HTTPResponseHead(
                    version: version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)))
        if withBody {
            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: response.body))))
        }
        try await outbound.write(.end(nil))
    }
}
