import CryptoPrimitives
import DescriptorWaits
import Glibc
public import Transports

/// ``HTTPExchange`` over our own sockets: one HTTP/1.1 request per connection, over TLS
/// (``TLSClientSession``: TLS 1.2 or later, certificate and host name verified) for `https`.
///
/// Nothing is shared between exchanges: no cookie store, no cache, no proxy, and redirects come back
/// as the 3xx they are, so a credential header never travels to a host the caller did not name.
public struct SocketHTTPExchange: HTTPExchange {
    /// A PEM file of certificate authorities to trust instead of the system's store.
    public var trustedCertificates: String?

    public init(trustedCertificates: String? = nil) {
        self.trustedCertificates = trustedCertificates
    }

    public func perform(_ request: HTTPRequest) async throws -> HTTPReply {
        let target = try HTTPRequestTarget(request.url)
        let message = try Self.message(for: request, target: target)
        let client = HTTPClientConnection()
        return try await client.exchange(
            message, target: target, trustedCertificates: trustedCertificates,
            until: ContinuousClock.now + request.timeout)
    }

    /// The request's bytes; header names and values that could split the message are refused.
    static func message(for request: HTTPRequest, target: HTTPRequestTarget) throws(HTTPExchangeError) -> [UInt8] {
        let isToken = { (text: String) in !text.isEmpty && text.utf8.allSatisfy(ASCII.isTokenByte) }
        let isValue = { (text: String) in text.utf8.allSatisfy(ASCII.isFieldValueByte) }
        guard isToken(request.method), request.headers.allSatisfy({ isToken($0.name) && isValue($0.value) }) else {
            throw HTTPExchangeError(kind: .other, detail: "a request header holds a line break or control byte")
        }
        var head = "\(request.method) \(target.pathAndQuery) HTTP/1.1\r\nHost: \(target.authority)\r\n"
        for header in request.headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Content-Length: \(request.body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + request.body
    }
}

/// One connection's life, on a thread of its own so blocking resolution and `poll()` never hold the
/// cooperative pool.
private actor HTTPClientConnection {
    private let executor = BlockingSocketExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    deinit {
        executor.shutdown()
    }

    func exchange(
        _ message: [UInt8], target: HTTPRequestTarget, trustedCertificates: String?,
        until deadline: ContinuousClock.Instant
    ) async throws -> HTTPReply {
        try await CancellationWake.cancellable {
            try exchangeBlocking(message, target: target, trustedCertificates: trustedCertificates, until: deadline)
        }
    }

    private func exchangeBlocking(
        _ message: [UInt8], target: HTTPRequestTarget, trustedCertificates: String?,
        until deadline: ContinuousClock.Instant
    ) throws -> HTTPReply {
        let addresses = try TCPConnection.addresses(of: target.host, port: target.port)
        let tls: TLSClientSession?
        do {
            tls =
                target.isSecure
                ? try TLSClientSession(serverName: target.host, trustedCertificates: trustedCertificates) : nil
        } catch {
            throw HTTPExchangeError(kind: .other, detail: "TLS: \(error)")
        }
        let limits = HTTPResponseParser.Limits()
        do {
            let connection = try TCPConnection.open(toAnyOf: addresses, until: deadline)
            let stream = HTTPClientStream(connection: connection, tls: tls, deadline: deadline)
            try stream.handshake()
            try stream.send(message)
            let bytes = try stream.receiveAll(limit: limits.headerSectionBytes + limits.bodyBytes)
            let response = try HTTPClosedStreamResponse.parse(bytes, limits: limits)
            return HTTPReply(status: response.statusCode, body: response.body)
        } catch let failure as TCPConnectionFailure {
            throw Self.exchangeError(failure, target: target)
        } catch let error as CryptoError {
            throw HTTPExchangeError(kind: .other, detail: "TLS with \(target.authority): \(error)")
        } catch let error as HTTPResponseParserError {
            throw HTTPExchangeError(kind: .other, detail: "not an HTTP response from \(target.authority): \(error)")
        }
    }

    private static func exchangeError(_ failure: TCPConnectionFailure, target: HTTPRequestTarget) -> any Error {
        let detail = "\(target.authority): \(failure)"
        return switch failure {
        case .cancelled: CancellationError()
        case .connectTimedOut, .transferTimedOut: HTTPExchangeError(kind: .timedOut, detail: detail)
        case .connectFailed(let code) where code == ECONNREFUSED: HTTPExchangeError(kind: .refused, detail: detail)
        case .connectFailed: HTTPExchangeError(kind: .unreachable, detail: detail)
        default: HTTPExchangeError(kind: .other, detail: detail)
        }
    }
}

/// Bytes to and from the server, through TLS when there is a session.
private struct HTTPClientStream {
    let connection: TCPConnection
    let tls: TLSClientSession?
    let deadline: ContinuousClock.Instant

    func handshake() throws {
        guard let tls else { return }
        while try !tls.handshake() {
            try connection.send(tls.takeOutgoing(), until: deadline)
            tls.receive(try connection.receive(until: deadline))
        }
        try connection.send(tls.takeOutgoing(), until: deadline)
    }

    func send(_ bytes: [UInt8]) throws {
        guard let tls else { return try connection.send(bytes, until: deadline) }
        try tls.write(bytes)
        try connection.send(tls.takeOutgoing(), until: deadline)
    }

    /// Everything the server sends until it closes the connection, refused beyond `limit` bytes.
    func receiveAll(limit: Int) throws -> [UInt8] {
        var received: [UInt8] = []
        while true {
            guard let chunk = try receiveUnlessClosed() else {
                tls?.receiveEndOfStream()
                if let tls, case .bytes(let rest) = try tls.read() { received += rest }
                return received
            }
            if let tls {
                tls.receive(chunk)
                switch try tls.read() {
                case .bytes(let plaintext): received += plaintext
                case .closed: return received
                }
            } else {
                received += chunk
            }
            guard received.count <= limit else {
                throw HTTPResponseParserError.bodyTooLarge(declared: received.count, limit: limit)
            }
        }
    }

    /// The next bytes, or nil once the server has closed the connection.
    private func receiveUnlessClosed() throws(TCPConnectionFailure) -> [UInt8]? {
        do {
            return try connection.receive(until: deadline)
        } catch {
            guard error == .closedByPeer else { throw error }
            return nil
        }
    }
}
