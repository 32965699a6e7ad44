import Testing
import Transports

@testable import Sockets

/// The one response of a `Connection: close` exchange, in each framing a server may choose.
@Suite struct HTTPClosedStreamResponseTests {
    func parse(_ text: String) throws(HTTPResponseParserError) -> HTTPResponse {
        try HTTPClosedStreamResponse.parse(Array(text.utf8))
    }

    @Test func contentLengthFramesTheBody() throws {
        let response = try parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello trailing")
        #expect(response.statusCode == 200)
        #expect(response.body == Array("hello".utf8))
    }

    @Test func chunkedBodiesAreJoined() throws {
        let response = try parse(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n7\r\n, world\r\n0\r\nTrailer: 1\r\n\r\n"
        )
        #expect(response.body == Array("hello, world".utf8))
    }

    @Test func withoutFramingTheBodyRunsToTheEndOfTheStream() throws {
        #expect(try parse("HTTP/1.0 200 OK\r\n\r\n{\"status\":0}").body == Array("{\"status\":0}".utf8))
    }

    @Test(arguments: [
        ("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort", HTTPResponseParserError.truncated),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", .truncated),
        ("HTTP/1.1 200 OK\r\nContent-Le", .truncated),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", .transferEncodingNotSupported("gzip")),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", .invalidContentLength("zz")),
        ("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", .conflictingContentLengths),
        ("HTTP/1.1 200 OK\nX: y\r\n\r\n", .lineNotTerminatedByCRLF),
        ("SSH-2.0-OpenSSH\r\n\r\n", .malformedStatusLine),
    ])
    func brokenResponsesAreNamed(text: String, expected: HTTPResponseParserError) {
        #expect(throws: expected) { try parse(text) }
    }

    @Test func bodiesBeyondTheLimitAreRefused() {
        let limits = HTTPResponseParser.Limits(bodyBytes: 4)
        #expect(throws: HTTPResponseParserError.bodyTooLarge(declared: 5, limit: 4)) {
            try HTTPClosedStreamResponse.parse(Array("HTTP/1.1 200 OK\r\n\r\nhello".utf8), limits: limits)
        }
        #expect(throws: HTTPResponseParserError.bodyTooLarge(declared: 5, limit: 4)) {
            try HTTPClosedStreamResponse.parse(
                Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n".utf8),
                limits: limits)
        }
    }

    /// Arbitrary bytes, and every prefix and bit flip of a good response, end in a response or a named error.
    @Test func arbitraryBytesNeverTrap() {
        var state: UInt64 = 0x1234_5678
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let good = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n".utf8)
        var inputs = (0...good.count).map { Array(good.prefix($0)) }
        for _ in 0..<500 {
            var flipped = good
            flipped[Int(next() % UInt64(good.count))] ^= UInt8(1 << (next() % 8))
            inputs.append(flipped)
            inputs.append((0..<Int(next() % 64)).map { _ in UInt8(truncatingIfNeeded: next()) })
        }
        for input in inputs {
            _ = try? HTTPClosedStreamResponse.parse(input)
        }
    }
}

@Suite struct HTTPRequestTargetTests {
    @Test(arguments: [
        ("https://sc.example.com/api/x?a=1#frag", true, "sc.example.com", UInt16(443), "/api/x?a=1", "sc.example.com"),
        ("http://127.0.0.1:8080", false, "127.0.0.1", 8080, "/", "127.0.0.1:8080"),
        ("HTTPS://[::1]:8443/p", true, "::1", 8443, "/p", "[::1]:8443"),
        ("http://host?q", false, "host", 80, "/?q", "host"),
    ])
    func targets(url: String, secure: Bool, host: String, port: UInt16, path: String, authority: String) throws {
        let target = try HTTPRequestTarget(url)
        #expect(target.isSecure == secure)
        #expect(target.host == host)
        #expect(target.port == port)
        #expect(target.pathAndQuery == path)
        #expect(target.authority == authority)
    }

    @Test(arguments: [
        "ftp://host/", "http://", "http://user:pw@host/", "http://host:0/", "http://host:65536/", "http://host:x/",
        "http://[::1/", "http://[::1]x/", "http://ho st/", "http://host/\r\nX: y", "https://:443/",
    ])
    func refusedURLs(url: String) {
        #expect(throws: HTTPExchangeError.self) { try HTTPRequestTarget(url) }
    }

    @Test func headersThatCouldSplitTheRequestAreRefused() throws {
        let target = try HTTPRequestTarget("http://host/")
        for value in ["a\r\nX-Injected: 1", "a\nb", "a\0b"] {
            let request = HTTPRequest(
                method: "POST", url: "http://host/", headers: [.init("Cookie", value)], timeout: .seconds(1))
            #expect(throws: HTTPExchangeError.self) { try SocketHTTPExchange.message(for: request, target: target) }
        }
        let request = HTTPRequest(
            method: "POST", url: "http://host/", headers: [.init("Cookie", "a=b")], body: [1], timeout: .seconds(1))
        let message = try SocketHTTPExchange.message(for: request, target: target)
        #expect(
            message == Array(
                "POST / HTTP/1.1\r\nHost: host\r\nCookie: a=b\r\nContent-Length: 1\r\nConnection: close\r\n\r\n".utf8)
                + [1])
    }
}
