import Glibc
public import Transports

/// Why a protocomm exchange over HTTP failed, in the system's and the server's own terms.
///
/// Cancellation is not a case here: a cancelled exchange throws `CancellationError`.
public enum HTTPTransportError: Error, Sendable, Equatable {
    // We misused the transport.

    /// The endpoint name is empty, longer than 64 bytes, or holds bytes a request path cannot carry as is.
    case invalidEndpointName(String)
    /// The device only accepts 1...4096 payload bytes (`MAX_REQ_BODY_LEN` in `protocomm_httpd.c`).
    case payloadSizeOutOfRange(Int)

    // The system refused.

    /// `SO_BINDTODEVICE` failed: no such interface (`ENODEV`) or not permitted (`EPERM`).
    case interfaceBindingFailed(interface: String, errno: Int32)
    /// The connection was refused or could not be routed (`ECONNREFUSED`, `ENETUNREACH`, …).
    case connectFailed(DeviceEndpoint, errno: Int32)
    /// No connection within the connect timeout.
    case connectTimedOut(DeviceEndpoint)
    /// Another system call failed; `call` names it (`socket`, `send`, `recv`, `poll`, `getsockopt`).
    case systemCallFailed(call: String, errno: Int32)

    // The device did not answer as protocomm's HTTP server does.

    /// No complete response within the exchange timeout.
    case exchangeTimedOut(endpoint: String)
    /// The device closed the connection without answering.
    ///
    /// That is how protocomm reports any handler failure: esp_http_server closes the socket when a handler
    /// returns `ESP_FAIL`. During `prov-session` it almost always means a wrong proof of possession or SRP
    /// password.
    case connectionClosedWithoutResponse(endpoint: String)
    /// The connection closed between requests while the session lived only in that socket (no cookie,
    /// firmware before IDF v4.3), so the session is gone and must be started again.
    case sessionConnectionLost
    /// 404: the firmware does not register this endpoint (e.g. `prov-ctrl` before IDF v5.1).
    case endpointNotFound(endpoint: String)
    /// Any status other than 200 and 404.
    case unexpectedStatus(endpoint: String, statusCode: Int, reasonPhrase: String)
    /// The reply is not an HTTP response this client accepts.
    case malformedResponse(endpoint: String, HTTPResponseParserError)
    /// The server sent bytes nobody asked for, so later responses could not be matched to requests.
    case unsolicitedBytes

    /// Whether a limit ended the exchange (connecting or the request itself), not the device or the system.
    var isTimeout: Bool {
        switch self {
        case .connectTimedOut, .exchangeTimedOut: true
        default: false
        }
    }
}

extension HTTPTransportError: CustomStringConvertible {
    /// One line for `--verbose` output, errno spelled out.
    public var description: String {
        switch self {
        case .invalidEndpointName(let name): "invalid protocomm endpoint name \"\(name)\""
        case .payloadSizeOutOfRange(let count): "payload of \(count) bytes; protocomm accepts 1 to 4096"
        case .interfaceBindingFailed(let interface, let code):
            "cannot bind to interface \(interface): \(Self.describe(code))"
        case .connectFailed(let device, let code): "cannot connect to \(device): \(Self.describe(code))"
        case .connectTimedOut(let device): "no connection to \(device) before the timeout"
        case .systemCallFailed(let call, let code): "\(call) failed: \(Self.describe(code))"
        case .exchangeTimedOut(let endpoint): "no answer to /\(endpoint) before the timeout"
        case .connectionClosedWithoutResponse(let endpoint):
            "the device closed the connection without answering /\(endpoint)"
        case .sessionConnectionLost: "the connection holding the session closed and the device set no session cookie"
        case .endpointNotFound(let endpoint): "the firmware has no /\(endpoint) endpoint (404)"
        case .unexpectedStatus(let endpoint, let code, let reason): "/\(endpoint) answered \(code) \(reason)"
        case .malformedResponse(let endpoint, let error): "malformed response to /\(endpoint): \(error)"
        case .unsolicitedBytes: "the device sent bytes nobody asked for"
        }
    }

    private static func describe(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }
}
