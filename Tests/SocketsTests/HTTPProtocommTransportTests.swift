import Glibc
import Sockets
import Testing
import Transports

/// The transport against a scripted server on 127.0.0.1: cookies, connection reuse, and every way
/// the device can refuse or fall silent.
@Suite struct HTTPProtocommTransportTests {
    typealias Server = LoopbackHTTPServer
    static let hello = Array("ESP".utf8)

    static func transport(for server: Server) -> HTTPProtocommTransport {
        HTTPProtocommTransport(device: server.endpoint, connectTimeout: .seconds(2))
    }

    @Test func postsEachRequestWithTheHeadersEspProvSends() async throws {
        let server = try Server { _ in .respond(Server.response(body: [0xAA, 0xBB])) }
        defer { server.stop() }
        let reply = try await Self.transport(for: server).exchange(
            endpoint: "prov-session", payload: [1, 2, 3], until: .now + .seconds(5))
        #expect(reply == [0xAA, 0xBB])
        let request = try #require(server.requests.first)
        #expect(request.requestLine == "POST /prov-session HTTP/1.1")
        #expect(request.values(of: "Host") == ["127.0.0.1:\(server.endpoint.port)"])
        #expect(request.values(of: "Content-Type") == ["application/x-www-form-urlencoded"])
        #expect(request.values(of: "Accept") == ["text/plain"])
        #expect(request.values(of: "Content-Length") == ["3"])
        #expect(request.body == [1, 2, 3])
    }

    @Test func echoesTheNewestSessionCookieVerbatim() async throws {
        let cookies = [0: "session=3735928559", 2: "session=17"]
        let server = try Server { request in
            .respond(Server.response(headers: cookies[request.index].map { ["Set-Cookie: \($0)"] } ?? []))
        }
        defer { server.stop() }
        let transport = Self.transport(for: server)
        for endpoint in ["proto-ver", "prov-session", "prov-session", "prov-config"] {
            _ = try await transport.exchange(endpoint: endpoint, payload: Self.hello, until: .now + .seconds(5))
        }
        #expect(
            server.requests.map { $0.values(of: "Cookie") } == [
                [], ["session=3735928559"], ["session=3735928559"], ["session=17"],
            ])
    }

    @Test func keepsOneConnectionForAWholeSession() async throws {
        let server = try Server { _ in .respond(Server.response()) }
        defer { server.stop() }
        let transport = Self.transport(for: server)
        for _ in 0..<5 {
            #expect(
                try await transport.exchange(endpoint: "prov-config", payload: Self.hello, until: .now + .seconds(5))
                    == Array("reply".utf8))
        }
        #expect(server.connectionCount == 1)
        #expect(server.requests.map(\.connection) == [0, 0, 0, 0, 0])
    }

    @Test func reportsAMissingEndpointAndResumesTheSessionByCookie() async throws {
        let server = try Server { request in
            switch request.index {
            case 0: .respond(Server.response(headers: ["Set-Cookie: session=99"]))
            case 1:
                .respondAndClose(Server.response("404 Not Found", body: Array("Nothing matches the given URI".utf8)))
            default: .respond(Server.response())
            }
        }
        defer { server.stop() }
        let transport = Self.transport(for: server)
        _ = try await transport.exchange(endpoint: "proto-ver", payload: Self.hello, until: .now + .seconds(5))
        await #expect(throws: HTTPTransportError.endpointNotFound(endpoint: "prov-ctrl")) {
            try await transport.exchange(endpoint: "prov-ctrl", payload: Self.hello, until: .now + .seconds(5))
        }
        _ = try await transport.exchange(endpoint: "prov-config", payload: Self.hello, until: .now + .seconds(5))
        #expect(server.requests.map(\.connection) == [0, 0, 1])
        #expect(server.requests.last?.values(of: "Cookie") == ["session=99"])
    }

    @Test func resumesTheSessionByCookieAfterDisconnecting() async throws {
        let server = try Server { _ in .respond(Server.response(headers: ["Set-Cookie: session=21"])) }
        defer { server.stop() }
        let transport = Self.transport(for: server)
        _ = try await transport.exchange(endpoint: "prov-session", payload: Self.hello, until: .now + .seconds(5))
        await transport.disconnect()
        _ = try await transport.exchange(endpoint: "prov-config", payload: Self.hello, until: .now + .seconds(5))
        #expect(server.requests.map(\.connection) == [0, 1])
        #expect(server.requests.last?.values(of: "Cookie") == ["session=21"])
    }

    @Test func reconnectsWhenTheServerClosesAfterEveryResponse() async throws {
        let server = try Server { _ in
            .respondAndClose(Server.response(headers: ["Set-Cookie: session=5"], version: "HTTP/1.0"))
        }
        defer { server.stop() }
        let transport = Self.transport(for: server)
        for _ in 0..<3 {
            _ = try await transport.exchange(endpoint: "prov-config", payload: Self.hello, until: .now + .seconds(5))
        }
        #expect(server.connectionCount == 3)
    }

    @Test func refusesToReconnectWhenTheSessionLivedInTheClosedSocket() async throws {
        let server = try Server { request in
            request.index == 0 ? .respondAndClose(Server.response()) : .respond(Server.response())
        }
        defer { server.stop() }
        let transport = Self.transport(for: server)
        _ = try await transport.exchange(endpoint: "prov-session", payload: Self.hello, until: .now + .seconds(5))
        try await Task.sleep(for: .milliseconds(50))
        await #expect(throws: HTTPTransportError.sessionConnectionLost) {
            try await transport.exchange(endpoint: "prov-config", payload: Self.hello, until: .now + .seconds(5))
        }
        // The caller starts over; a fresh connection is then fine.
        _ = try await transport.exchange(endpoint: "proto-ver", payload: Self.hello, until: .now + .seconds(5))
        #expect(server.requests.map(\.connection) == [0, 1])
    }

    @Test func reportsADeviceThatHangsUpInsteadOfAnswering() async throws {
        let server = try Server { request in
            request.index == 0 ? .respond(Server.response(headers: ["Set-Cookie: session=1"])) : .closeWithoutResponse
        }
        defer { server.stop() }
        let transport = Self.transport(for: server)
        _ = try await transport.exchange(endpoint: "proto-ver", payload: Self.hello, until: .now + .seconds(5))
        await #expect(throws: HTTPTransportError.connectionClosedWithoutResponse(endpoint: "prov-session")) {
            try await transport.exchange(endpoint: "prov-session", payload: Self.hello, until: .now + .seconds(5))
        }
    }

    @Test func reportsAResponseCutShort() async throws {
        let server = try Server { _ in .respondAndClose(Array(Server.response().dropLast(2))) }
        defer { server.stop() }
        await #expect(throws: HTTPTransportError.malformedResponse(endpoint: "prov-scan", .truncated)) {
            try await Self.transport(for: server).exchange(
                endpoint: "prov-scan", payload: Self.hello, until: .now + .seconds(5))
        }
    }

    @Test func refusesChunkedResponses() async throws {
        let chunked = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n".utf8)
        let server = try Server { _ in .respond(chunked) }
        defer { server.stop() }
        await #expect(
            throws: HTTPTransportError.malformedResponse(
                endpoint: "prov-config", .transferEncodingNotSupported("chunked"))
        ) {
            try await Self.transport(for: server).exchange(
                endpoint: "prov-config", payload: Self.hello, until: .now + .seconds(5))
        }
    }

    @Test func typesOtherStatuses() async throws {
        let server = try Server { _ in .respond(Server.response("500 Internal Server Error")) }
        defer { server.stop() }
        await #expect(
            throws: HTTPTransportError.unexpectedStatus(
                endpoint: "prov-config", statusCode: 500, reasonPhrase: "Internal Server Error")
        ) {
            try await Self.transport(for: server).exchange(
                endpoint: "prov-config", payload: Self.hello, until: .now + .seconds(5))
        }
    }

    @Test func refusesBytesNobodyAskedFor() async throws {
        let extra = Array("HTTP/1.1 200 OK\r\n".utf8)
        let response = Server.response(headers: ["Set-Cookie: session=8"])
        let server = try Server { request in
            request.index == 0 ? .respondThenSend(response, extra: extra) : .respond(response + extra)
        }
        defer { server.stop() }
        let transport = Self.transport(for: server)
        _ = try await transport.exchange(endpoint: "proto-ver", payload: Self.hello, until: .now + .seconds(5))
        server.releaseExtra()
        #expect(try await server.extraReachedTheClient())
        await #expect(throws: HTTPTransportError.unsolicitedBytes) {
            try await transport.exchange(endpoint: "prov-session", payload: Self.hello, until: .now + .seconds(5))
        }
        await #expect(throws: HTTPTransportError.unsolicitedBytes) {
            try await transport.exchange(endpoint: "prov-session", payload: Self.hello, until: .now + .seconds(5))
        }
    }

    /// The caller's deadline alone bounds an exchange: a slow reply inside it arrives, and one slower than
    /// it is the caller's `DeadlineExceeded`.
    @Test func theCallersDeadlineBoundsTheExchange() async throws {
        let server = try Server { _ in
            usleep(400_000)
            return .respond(Server.response(headers: ["Set-Cookie: session=9"]))
        }
        defer { server.stop() }
        let transport = Self.transport(for: server)
        let reply = try await transport.exchange(endpoint: "proto-ver", payload: Self.hello, until: .now + .seconds(5))
        #expect(reply == Array("reply".utf8))
        await #expect(throws: DeadlineExceeded.self) {
            try await transport.exchange(
                endpoint: "prov-session", payload: Self.hello, until: .now + .milliseconds(150))
        }
    }

    @Test func givesUpOnASilentDeviceAtTheDeadline() async throws {
        let server = try Server { _ in .stayQuiet }
        defer { server.stop() }
        let transport = Self.transport(for: server)
        let started = ContinuousClock.now
        await #expect(throws: DeadlineExceeded("HTTP POST /prov-session")) {
            try await transport.exchange(
                endpoint: "prov-session", payload: Self.hello, until: started + .milliseconds(200))
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(200))
    }

    @Test func stopsWaitingWhenTheTaskIsCancelled() async throws {
        let server = try Server { _ in .stayQuiet }
        defer { server.stop() }
        // Far beyond any test's run: only the cancellation can end this wait with CancellationError.
        let transport = Self.transport(for: server)
        let exchange = Task {
            try await transport.exchange(endpoint: "prov-config", payload: Self.hello, until: .now + .seconds(3600))
        }
        try await Task.sleep(for: .milliseconds(100))
        exchange.cancel()
        await #expect(throws: CancellationError.self) { try await exchange.value }
    }

    @Test func reportsARefusedConnectionWithItsErrno() async throws {
        let listener = try LoopbackSocket.listen(backlog: 1)
        let port = try LoopbackSocket.port(of: listener)
        close(listener)
        let device = DeviceEndpoint(127, 0, 0, 1, port: port)
        await #expect(throws: HTTPTransportError.connectFailed(device, errno: ECONNREFUSED)) {
            try await HTTPProtocommTransport(device: device).exchange(
                endpoint: "proto-ver", payload: Self.hello, until: .now + .seconds(5))
        }
    }

    @Test func givesUpOnAConnectionThatIsNeverAccepted() async throws {
        // With a backlog of 0 and one connection already queued, the kernel drops further SYNs.
        let listener = try LoopbackSocket.listen(backlog: 0)
        defer { close(listener) }
        let device = DeviceEndpoint(127, 0, 0, 1, port: try LoopbackSocket.port(of: listener))
        let queued = try LoopbackSocket.connect(to: device)
        defer { close(queued) }
        let transport = HTTPProtocommTransport(device: device, connectTimeout: .milliseconds(200))
        await #expect(throws: HTTPTransportError.connectTimedOut(device)) {
            try await transport.exchange(endpoint: "proto-ver", payload: Self.hello, until: .now + .seconds(5))
        }
    }

    @Test func refusesBadRequestsBeforeConnecting() async throws {
        let server = try Server { _ in .respond(Server.response()) }
        defer { server.stop() }
        let transport = Self.transport(for: server)
        await #expect(throws: HTTPTransportError.payloadSizeOutOfRange(0)) {
            try await transport.exchange(endpoint: "proto-ver", payload: [], until: .now + .seconds(5))
        }
        await #expect(throws: HTTPTransportError.invalidEndpointName("proto ver")) {
            try await transport.exchange(endpoint: "proto ver", payload: Self.hello, until: .now + .seconds(5))
        }
        #expect(server.connectionCount == 0)
    }

    @Test func bindsToTheGivenInterface() async throws {
        let server = try Server { _ in .respond(Server.response()) }
        defer { server.stop() }
        let transport = HTTPProtocommTransport(device: server.endpoint, interface: "lo")
        #expect(
            try await transport.exchange(endpoint: "proto-ver", payload: Self.hello, until: .now + .seconds(5))
                == Array("reply".utf8))
    }

    @Test func reportsAnInterfaceThatCannotBeBound() async throws {
        let server = try Server { _ in .respond(Server.response()) }
        defer { server.stop() }
        let transport = HTTPProtocommTransport(device: server.endpoint, interface: "ztprov-none0")
        await #expect {
            try await transport.exchange(endpoint: "proto-ver", payload: Self.hello, until: .now + .seconds(5))
        } throws: { error in
            guard case .interfaceBindingFailed("ztprov-none0", let code) = error as? HTTPTransportError else {
                return false
            }
            return code == ENODEV || code == EPERM
        }
    }
}
