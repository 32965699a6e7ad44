import DescriptorWaits
import Logging
public import Transports

/// Protocomm over HTTP/1.1 to a device's SoftAP: one keep-alive TCP connection, the session cookie
/// echoed verbatim, every wait bounded, as ESP-IDF's `components/protocomm/src/transports/protocomm_httpd.c`
/// expects of a client.
///
/// Requests go strictly one at a time: the actor runs each exchange to the end on its own thread
/// (`BlockingSocketExecutor`) without suspending, so calls queue instead of interleaving. A keep-alive
/// connection the device closed between requests is replaced only when the device gave us a cookie,
/// because without one the session lived in that socket, and the device drops that binding when the socket
/// closes. Nothing is retried once a request has been sent: the device may have acted on it and advanced
/// its cipher.
public actor HTTPProtocommTransport: ProtocommTransport {
    /// Where the device serves protocomm.
    public let device: DeviceEndpoint
    /// The network interface every connection is bound to (`SO_BINDTODEVICE`), or nil for the routing table's choice.
    public let interface: String?
    /// The longest a TCP connection attempt may take.
    public let connectTimeout: Duration

    private let executor = BlockingSocketExecutor()
    private var connection: TCPConnection?
    private var cookie: HTTPSessionCookie?
    /// Whether the device holds a session identified only by the current socket (it answered, but set no cookie).
    private var sessionBoundToSocket = false

    /// Runs the actor on its own thread, where blocking in `poll()` harms nobody.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Prepares a transport; nothing connects before the first exchange.
    ///
    /// - Parameters:
    ///   - device: the device's address, `DeviceEndpoint.softAPDefault` on a real SoftAP.
    ///   - interface: the Wi-Fi interface joined to the SoftAP, so traffic cannot leave through another
    ///     route; nil skips the binding (loopback tests).
    ///   - connectTimeout: limit for each TCP connection attempt (an exchange's deadline is the caller's).
    public init(
        device: DeviceEndpoint = .softAPDefault, interface: String? = nil, connectTimeout: Duration = .seconds(5)
    ) {
        self.device = device
        self.interface = interface
        self.connectTimeout = connectTimeout
    }

    deinit {
        executor.shutdown()
    }

    /// Posts `payload` to `/<endpoint>` and returns the body of the device's 200 response, by the caller's
    /// `deadline` (a connection attempt still takes at most ``connectTimeout``).
    ///
    /// Throws `DeadlineExceeded` when the deadline ends it, `HTTPTransportError` for what the device or the
    /// network did, or `CancellationError` as soon as the task is cancelled.
    public func exchange(endpoint: String, payload: [UInt8], until deadline: ContinuousClock.Instant) async throws
        -> [UInt8]
    {
        let request = try HTTPProtocommRequest(endpoint: endpoint, payload: payload)
        try Task.checkCancellation()
        let started = ContinuousClock.now
        let response: HTTPResponse
        do {
            response = try await CancellationWake.cancellable {
                let connection = try readyConnection(for: request, until: min(started + connectTimeout, deadline))
                return try perform(request, on: connection, until: deadline)
            }
        } catch let error as HTTPTransportError where error.isTimeout && ContinuousClock.now >= deadline {
            Self.log.debug("HTTP POST /\(endpoint) (\(payload.count) bytes): the caller's deadline passed")
            throw DeadlineExceeded("HTTP POST /\(endpoint)")
        } catch {
            Self.log.debug("HTTP POST /\(endpoint) (\(payload.count) bytes): \(error)")
            throw error
        }
        let (seconds, attoseconds) = (ContinuousClock.now - started).components
        Self.log.debug(
            "HTTP POST /\(endpoint) (\(payload.count) bytes): \(response.statusCode), \(response.body.count) bytes in \(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
        )
        switch response.statusCode {
        case 200: return response.body
        case 404: throw HTTPTransportError.endpointNotFound(endpoint: endpoint)
        default:
            throw HTTPTransportError.unexpectedStatus(
                endpoint: endpoint, statusCode: response.statusCode, reasonPhrase: response.reasonPhrase)
        }
    }

    /// The debug log (`-v`): endpoint, sizes, status and time; never bodies, which carry credentials.
    private static let log = Logger(label: "ztprov.http")

    /// Closes the connection; the session cookie is kept, so a later exchange resumes the session.
    public func disconnect() {
        connection = nil
        sessionBoundToSocket = false
    }

    /// The open connection if the device kept it, otherwise a new one when that cannot lose a session.
    private func readyConnection(for request: HTTPProtocommRequest, until deadline: ContinuousClock.Instant) throws
        -> TCPConnection
    {
        if let connection {
            switch connection.idleState() {
            case .open: return connection
            case .closedByPeer: self.connection = nil
            case .unsolicitedBytes:
                self.connection = nil
                throw HTTPTransportError.unsolicitedBytes
            }
        }
        if sessionBoundToSocket {
            sessionBoundToSocket = false
            throw HTTPTransportError.sessionConnectionLost
        }
        do throws(TCPConnectionFailure) {
            let opened = try TCPConnection.open(to: device, interface: interface, until: deadline)
            connection = opened
            return opened
        } catch {
            throw transportError(for: error, endpoint: request.endpoint)
        }
    }

    /// Sends one request and reads its response; any failure drops the connection.
    private func perform(
        _ request: HTTPProtocommRequest, on connection: TCPConnection, until deadline: ContinuousClock.Instant
    ) throws -> HTTPResponse {
        do {
            try sendBytes(request.encoded(for: device, cookie: cookie), on: connection, for: request, until: deadline)
            let response = try receiveResponse(on: connection, for: request, until: deadline)
            if let offered = HTTPSessionCookie(from: response) {
                cookie = offered
            }
            sessionBoundToSocket = sessionBoundToSocket || (cookie == nil && response.statusCode == 200)
            // esp_http_server closes the socket after every error status (`httpd_req_handle_err`).
            if response.statusCode != 200 || !response.keepsConnectionOpen {
                self.connection = nil
            }
            return response
        } catch {
            self.connection = nil
            throw error
        }
    }
}
