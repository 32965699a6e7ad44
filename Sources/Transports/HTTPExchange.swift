/// One HTTP request/response exchange, the way flows talk to the SC cloud.
///
/// Implemented by `Sockets` (`SocketHTTPExchange`: HTTP/1.1, HTTPS through CryptoPrimitives) and by small fakes in tests.
/// Errors conform to ``TransportFailure``; an HTTP error status is a response, not an error.
public protocol HTTPExchange: Sendable {
    func perform(_ request: HTTPRequest) async throws -> HTTPReply
}

/// A request: method, absolute URL, headers, body and how long to wait for the answer.
///
/// Headers may carry credentials (session cookies), so the textual form shows only method and URL.
public struct HTTPRequest: Sendable, CustomStringConvertible, CustomReflectable {
    public var method: String
    public var url: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    public var timeout: Duration

    public init(method: String, url: String, headers: [HTTPHeader] = [], body: [UInt8] = [], timeout: Duration) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    public var description: String { "\(method) \(url)" }
    public var customMirror: Mirror { Mirror(self, children: ["method": method, "url": url]) }
}

/// One header line.
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A response with any status.
public struct HTTPReply: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}
