import Sockets
import Testing

@Suite struct HTTPResponseParserTests {
    static let sample = Array(
        """
        HTTP/1.1 200 OK\r
        Content-Type: text/html\r
        Content-Length: 5\r
        Set-Cookie: session=1234\r
        \r
        hello
        """.utf8)

    static let sampleResponse = HTTPResponse(
        version: "HTTP/1.1",
        statusCode: 200,
        reasonPhrase: "OK",
        headerFields: [
            HTTPHeaderField(name: "Content-Type", value: "text/html"),
            HTTPHeaderField(name: "Content-Length", value: "5"),
            HTTPHeaderField(name: "Set-Cookie", value: "session=1234"),
        ],
        body: Array("hello".utf8)
    )

    static func head(_ lines: String...) -> [UInt8] {
        Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    static func parse(_ bytes: [UInt8]) throws(HTTPResponseParserError) -> HTTPResponse? {
        var parser = HTTPResponseParser()
        parser.received(bytes)
        return try parser.nextResponse()
    }

    @Test func parsesAWholeResponse() throws {
        var parser = HTTPResponseParser()
        parser.received(Self.sample)
        #expect(try parser.nextResponse() == Self.sampleResponse)
        #expect(try parser.nextResponse() == nil)
        #expect(!parser.hasPartialResponse)
        #expect(throws: Never.self) { try parser.receivedEndOfStream() }
    }

    @Test func givesTheSameResponseWhereverTheBytesAreSplit() throws {
        for split in 0...Self.sample.count {
            var parser = HTTPResponseParser()
            parser.received(Self.sample[..<split])
            let early = try parser.nextResponse()
            #expect(early == (split == Self.sample.count ? Self.sampleResponse : nil), "split at \(split)")
            parser.received(Self.sample[split...])
            if early == nil {
                #expect(try parser.nextResponse() == Self.sampleResponse, "split at \(split)")
            }
        }
    }

    @Test func parsesOneByteAtATime() throws {
        var parser = HTTPResponseParser()
        var responses: [HTTPResponse] = []
        for byte in Self.sample {
            parser.received([byte])
            if let response = try parser.nextResponse() {
                responses.append(response)
            }
        }
        #expect(responses == [Self.sampleResponse])
    }

    @Test func keepsPipelinedResponsesApart() throws {
        var parser = HTTPResponseParser()
        parser.received(Self.sample + Self.sample + Self.sample.prefix(10))
        #expect(try parser.nextResponse() == Self.sampleResponse)
        #expect(try parser.nextResponse() == Self.sampleResponse)
        #expect(try parser.nextResponse() == nil)
        #expect(parser.hasPartialResponse)
        parser.received(Self.sample.dropFirst(10))
        #expect(try parser.nextResponse() == Self.sampleResponse)
    }

    @Test func reportsAStreamThatEndsInsideAResponse() {
        var parser = HTTPResponseParser()
        parser.received(Self.sample.dropLast())
        #expect(throws: Never.self) { try parser.nextResponse() }
        #expect(throws: HTTPResponseParserError.truncated) { try parser.receivedEndOfStream() }
    }

    @Test(arguments: [
        ("HTTP/1.1 200OK", HTTPResponseParserError.malformedStatusLine),
        ("HTTP/1.1 20 OK", .malformedStatusLine),
        ("HTTP/1.1 2000 OK", .malformedStatusLine),
        ("HTTP/1.1 600 Nope", .malformedStatusLine),
        ("HTTP/1.1 099 Nope", .malformedStatusLine),
        ("HTTP/1.1  200 OK", .malformedStatusLine),
        (" HTTP/1.1 200 OK", .malformedStatusLine),
        ("http/1.1 200 OK", .malformedStatusLine),
        ("HTTP/1.1", .malformedStatusLine),
        ("HTTP/11 200 OK", .malformedStatusLine),
        ("HTTP/1.1 200 O\u{7}K", .malformedStatusLine),
        ("ICY 200 OK", .malformedStatusLine),
        ("HTTP/2.0 200 OK", .unsupportedVersion("HTTP/2.0")),
        ("HTTP/1.2 200 OK", .unsupportedVersion("HTTP/1.2")),
        ("HTTP/1.1 100 Continue", .interimResponse(statusCode: 100)),
        ("HTTP/1.1 101 Switching Protocols", .interimResponse(statusCode: 101)),
    ])
    func refusesBadStatusLines(line: String, error: HTTPResponseParserError) {
        #expect(throws: error) { try Self.parse(Self.head(line, "Content-Length: 0")) }
    }

    @Test(arguments: ["HTTP/1.1 200 ", "HTTP/1.1 200", "HTTP/1.0 200 Fine \u{E9}"])
    func acceptsStatusLinesWithoutAUsefulReason(line: String) throws {
        let bytes = line.unicodeScalars.map { UInt8($0.value) } + Array("\r\nContent-Length: 0\r\n\r\n".utf8)
        #expect(try Self.parse(bytes)?.statusCode == 200)
    }

    @Test func refusesGarbageBeforeALineEnds() {
        #expect(throws: HTTPResponseParserError.malformedStatusLine) { try Self.parse(Array("GET / HTTP/1.1".utf8)) }
        // A TLS ServerHello where HTTP was expected.
        #expect(throws: HTTPResponseParserError.malformedStatusLine) { try Self.parse([0x16, 0x03, 0x03, 0x00]) }
    }

    @Test func refusesBareLineFeeds() {
        #expect(throws: HTTPResponseParserError.lineNotTerminatedByCRLF) {
            try Self.parse(Array("HTTP/1.1 200 OK\nContent-Length: 0\n\n".utf8))
        }
        #expect(throws: HTTPResponseParserError.lineNotTerminatedByCRLF) {
            try Self.parse(Array("HTTP/1.1 200 OK\r\nContent-Length: 0\n\r\n".utf8))
        }
        #expect(throws: HTTPResponseParserError.lineNotTerminatedByCRLF) {
            try Self.parse(Array("HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n".utf8))
        }
    }

    @Test(arguments: [
        " folded: value", "Name : value", "Na me: value", ": value", "NoColon", "Name: a\u{0}b", "Nåme: v",
    ])
    func refusesMalformedHeaderFields(line: String) {
        #expect(throws: HTTPResponseParserError.malformedHeaderField) {
            try Self.parse(Self.head("HTTP/1.1 200 OK", "Content-Length: 0", line))
        }
    }

    @Test func trimsFieldValuesAndReadsHighBytesAsLatin1() throws {
        let bytes =
            Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nX-Name: \t caf".utf8) + [0xE9] + Array(" \r\n\r\n".utf8)
        #expect(try Self.parse(bytes)?.values(of: "x-name") == ["caf\u{E9}"])
    }

    @Test func refusesAResponseWithoutContentLength() {
        #expect(throws: HTTPResponseParserError.missingContentLength) {
            try Self.parse(Self.head("HTTP/1.1 200 OK", "Content-Type: text/html"))
        }
    }

    @Test(arguments: [204, 304])
    func readsNoBodyWhereTheStatusForbidsOne(status: Int) throws {
        let response = try Self.parse(Self.head("HTTP/1.1 \(status) Empty"))
        #expect(response?.statusCode == status)
        #expect(response?.body == [])
    }

    @Test func refusesChunkedAndEveryOtherTransferCoding() {
        #expect(throws: HTTPResponseParserError.transferEncodingNotSupported("chunked")) {
            try Self.parse(
                Self.head("HTTP/1.1 200 OK", "Transfer-Encoding: chunked") + Array("5\r\nhello\r\n0\r\n\r\n".utf8))
        }
        #expect(throws: HTTPResponseParserError.transferEncodingNotSupported("identity")) {
            try Self.parse(Self.head("HTTP/1.1 200 OK", "Content-Length: 0", "transfer-encoding: identity"))
        }
    }

    @Test(arguments: ["-1", "5, 5", "0x10", "", "+5", "12345678901", "5 5"])
    func refusesInvalidContentLengths(value: String) {
        #expect(throws: HTTPResponseParserError.invalidContentLength(value)) {
            try Self.parse(Self.head("HTTP/1.1 200 OK", "Content-Length: \(value)"))
        }
    }

    @Test func acceptsRepeatedEqualContentLengthsOnly() throws {
        let repeated = Self.head("HTTP/1.1 200 OK", "Content-Length: 2", "Content-Length: 2") + [1, 2]
        #expect(try Self.parse(repeated)?.body == [1, 2])
        #expect(throws: HTTPResponseParserError.conflictingContentLengths) {
            try Self.parse(Self.head("HTTP/1.1 200 OK", "Content-Length: 2", "Content-Length: 3"))
        }
    }

    @Test func refusesHugeHeaderSectionsEvenWithoutALineEnd() {
        let limits = HTTPResponseParser.Limits(headerSectionBytes: 100)
        var parser = HTTPResponseParser(limits: limits)
        parser.received(Array("HTTP/1.1 200 OK\r\nX-Pad: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 100))
        #expect(throws: HTTPResponseParserError.headerSectionTooLarge(limit: 100)) { try parser.nextResponse() }

        let manyLines = (0..<20).map { "X-Field-\($0): value" }
        var lined = HTTPResponseParser(limits: limits)
        lined.received(Self.head(["HTTP/1.1 200 OK", "Content-Length: 0"] + manyLines))
        #expect(throws: HTTPResponseParserError.headerSectionTooLarge(limit: 100)) { try lined.nextResponse() }
    }

    @Test func countsTheHeaderLimitPerResponse() throws {
        var parser = HTTPResponseParser(limits: HTTPResponseParser.Limits(headerSectionBytes: Self.sample.count))
        parser.received(Self.sample + Self.sample + Self.sample)
        for _ in 0..<3 {
            #expect(try parser.nextResponse() == Self.sampleResponse)
        }
    }

    @Test func refusesTooManyHeaderFields() {
        var parser = HTTPResponseParser(limits: HTTPResponseParser.Limits(headerFields: 3))
        parser.received(Self.head("HTTP/1.1 200 OK", "A: 1", "B: 2", "C: 3", "Content-Length: 0"))
        #expect(throws: HTTPResponseParserError.tooManyHeaderFields(limit: 3)) { try parser.nextResponse() }
    }

    @Test func refusesBodiesOverTheLimitAsSoonAsTheHeadArrives() {
        var parser = HTTPResponseParser(limits: HTTPResponseParser.Limits(bodyBytes: 16))
        parser.received(Self.head("HTTP/1.1 200 OK", "Content-Length: 17"))
        #expect(throws: HTTPResponseParserError.bodyTooLarge(declared: 17, limit: 16)) { try parser.nextResponse() }
    }

    @Test func keepsTheFirstErrorForever() {
        var parser = HTTPResponseParser()
        parser.received(Array("XTTP/1.1".utf8))
        #expect(throws: HTTPResponseParserError.malformedStatusLine) { try parser.nextResponse() }
        parser.received(Self.sample)
        #expect(throws: HTTPResponseParserError.malformedStatusLine) { try parser.nextResponse() }
        #expect(throws: HTTPResponseParserError.malformedStatusLine) { try parser.receivedEndOfStream() }
    }

    @Test(arguments: [
        ("HTTP/1.1", [String](), true), ("HTTP/1.1", ["Connection: close"], false),
        ("HTTP/1.1", ["Connection: Keep-Alive, CLOSE"], false), ("HTTP/1.0", [], false),
        ("HTTP/1.0", ["Connection: keep-alive"], true),
    ])
    func tellsWhetherTheConnectionStaysOpen(version: String, fields: [String], keepsOpen: Bool) throws {
        let response = try Self.parse(Self.head(["\(version) 200 OK", "Content-Length: 0"] + fields))
        #expect(response?.keepsConnectionOpen == keepsOpen)
    }
}

extension HTTPResponseParserTests {
    static func head(_ lines: [String]) -> [UInt8] {
        Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }
}
