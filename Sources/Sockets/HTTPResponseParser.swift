/// Turns bytes from a connection into HTTP/1.x responses, strictly and incrementally.
///
/// Rules (sans-I/O, in h11's manner):
/// - Feed whatever arrived with `received(_:)`, then call `nextResponse()` until it returns nil.
///   Bytes may be split anywhere; bytes past one response stay buffered for the next.
/// - Only `Content-Length` framing: chunked or any other transfer coding, and bodies that run to
///   end of stream, are refused, because protocomm servers never send them.
/// - Lines end in CRLF; garbage is refused as soon as the first bytes show it cannot be HTTP.
/// - The first error is final: every later call throws it again.
public struct HTTPResponseParser: Sendable {
    /// Upper bounds that keep a misbehaving peer from growing our memory.
    public struct Limits: Sendable, Equatable {
        /// Status line plus header fields plus their line ends.
        public var headerSectionBytes: Int
        /// Number of header fields.
        public var headerFields: Int
        /// Body bytes.
        public var bodyBytes: Int

        /// Creates limits.
        public init(headerSectionBytes: Int = 8192, headerFields: Int = 64, bodyBytes: Int = 65_536) {
            self.headerSectionBytes = headerSectionBytes
            self.headerFields = headerFields
            self.bodyBytes = bodyBytes
        }
    }

    private enum State: Sendable {
        case statusLine
        case headerFields(HTTPResponse)
        case body(HTTPResponse, length: Int)
        case failed(HTTPResponseParserError)
    }

    /// The bounds this parser enforces.
    public let limits: Limits
    private var state = State.statusLine
    private var buffer: [UInt8] = []
    /// Start of the bytes not yet consumed.
    private var start = 0
    /// Where the search for the next line feed resumes, so split input is not rescanned.
    private var scanFrom = 0

    /// Creates a parser with the given limits.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whether part of a response has arrived but not all of it, so an end of stream now truncates it.
    public var hasPartialResponse: Bool {
        if case .statusLine = state { return start < buffer.count }
        return true
    }

    /// Appends bytes read from the connection.
    public mutating func received(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next complete response, or nil when more bytes are needed.
    public mutating func nextResponse() throws(HTTPResponseParserError) -> HTTPResponse? {
        do {
            return try advance()
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// Reports the end of the stream; throws `.truncated` if it cut a response short.
    public mutating func receivedEndOfStream() throws(HTTPResponseParserError) {
        if case .failed(let error) = state { throw error }
        if hasPartialResponse {
            state = .failed(.truncated)
            throw .truncated
        }
    }

    private mutating func advance() throws(HTTPResponseParserError) -> HTTPResponse? {
        while true {
            switch state {
            case .failed(let error):
                throw error
            case .statusLine:
                try Self.checkStatusLinePrefix(buffer[start...])
                guard let line = try nextLine() else { return nil }
                state = .headerFields(try Self.parseStatusLine(line))
            case .headerFields(var response):
                guard let line = try nextLine() else { return nil }
                if line.isEmpty {
                    state = .body(response, length: try bodyLength(of: response))
                } else {
                    guard response.headerFields.count < limits.headerFields else {
                        throw .tooManyHeaderFields(limit: limits.headerFields)
                    }
                    response.headerFields.append(try Self.parseHeaderField(line))
                    state = .headerFields(response)
                }
            case .body(var response, let length):
                guard buffer.count - start >= length else { return nil }
                response.body = Array(buffer[start..<start + length])
                consume(upTo: start + length)
                state = .statusLine
                return response
            }
        }
    }

    /// Takes the next CRLF-terminated line without its line end, or nil if it is incomplete.
    private mutating func nextLine() throws(HTTPResponseParserError) -> ArraySlice<UInt8>? {
        let lineFeed = buffer[scanFrom...].firstIndex(of: ASCII.lineFeed)
        // The buffer starts with the current response, so this is the size of its head so far.
        guard (lineFeed ?? buffer.count) <= limits.headerSectionBytes else {
            throw .headerSectionTooLarge(limit: limits.headerSectionBytes)
        }
        guard let lineFeed else {
            scanFrom = buffer.count
            return nil
        }
        guard lineFeed > start, buffer[lineFeed - 1] == ASCII.carriageReturn else { throw .lineNotTerminatedByCRLF }
        let line = buffer[start..<lineFeed - 1]
        guard !line.contains(ASCII.carriageReturn) else { throw .lineNotTerminatedByCRLF }
        start = lineFeed + 1
        scanFrom = start
        return line
    }

    /// Drops everything before `end`, once a whole response has been taken.
    private mutating func consume(upTo end: Int) {
        buffer.removeFirst(end)
        start = 0
        scanFrom = 0
    }
}
