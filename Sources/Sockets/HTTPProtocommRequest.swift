import Transports

/// One protocomm POST, laid out the way esp_prov (`transport/transport_http.py`) and the phone apps send it.
struct HTTPProtocommRequest {
    /// The device's handler refuses empty bodies and bodies over 4096 bytes (`MAX_REQ_BODY_LEN`).
    static let payloadSizes = 1...4096

    /// Endpoint names go into the request path as they are, so only RFC 3986 unreserved bytes are allowed.
    private static let endpointNameBytes = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8)

    let endpoint: String
    let payload: [UInt8]

    /// Checks what the device would refuse before anything is sent.
    init(endpoint: String, payload: [UInt8]) throws(HTTPTransportError) {
        guard (1...64).contains(endpoint.utf8.count), endpoint.utf8.allSatisfy(Self.endpointNameBytes.contains) else {
            throw .invalidEndpointName(endpoint)
        }
        guard Self.payloadSizes.contains(payload.count) else { throw .payloadSizeOutOfRange(payload.count) }
        self.endpoint = endpoint
        self.payload = payload
    }

    /// The request bytes: head and body in one buffer, so they leave in as few segments as possible.
    ///
    /// The header block stays far below esp_http_server's 1024-byte limit (`CONFIG_HTTPD_MAX_REQ_HDR_LEN`).
    func encoded(for device: DeviceEndpoint, cookie: HTTPSessionCookie?) -> [UInt8] {
        // Like Python's http.client, leave the default port out of Host.
        let host = device.port == 80 ? device.host : device.description
        var lines = [
            "POST /\(endpoint) HTTP/1.1",
            "Host: \(host)",
            "Content-Type: application/x-www-form-urlencoded",
            "Accept: text/plain",
            "Content-Length: \(payload.count)",
        ]
        if let cookie {
            lines.append("Cookie: \(cookie.headerValue)")
        }
        let head = lines.map { $0 + "\r\n" }.joined() + "\r\n"
        return Array(head.utf8) + payload
    }
}
