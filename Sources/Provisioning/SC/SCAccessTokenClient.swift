import FoundationEssentials
public import Logging
public import Transports

/// Fetches a device access token from the SC cloud with the user's session, as the apps do
/// before every hand-off.
public struct SCAccessTokenClient: Sendable {
    let exchange: any HTTPExchange
    let endpoint: SCEndpoint
    let timeout: Duration
    let logger: Logger

    /// A client for `endpoint`; 15 s per request like the iOS app.
    public init(exchange: any HTTPExchange, endpoint: SCEndpoint, timeout: Duration = .seconds(15), logger: Logger) {
        self.exchange = exchange
        self.endpoint = endpoint
        self.timeout = timeout
        self.logger = logger
    }

    /// `POST /api/v2.0.0/oauth2/access_token` with the session cookie and no body.
    public func fetchAccessToken(session: SCSession) async throws(ProvisioningError) -> SCAccessToken {
        let request = HTTPRequest(
            method: "POST",
            url: endpoint.accessTokenURL,
            headers: [
                HTTPHeader("Content-Type", "application/json"),
                HTTPHeader("Cookie", session.cookieHeader.revealed()),
            ],
            timeout: timeout
        )
        logger.debug("requesting an SC access token: \(request)")
        let response: HTTPReply
        do {
            response = try await exchange.perform(request)
        } catch {
            throw ProvisioningError.scTransport(error, endpoint: endpoint)
        }
        logger.debug("SC answered HTTP \(response.status) (\(response.body.count) bytes)")
        return try SCAccessToken(response, endpoint: endpoint)
    }
}

/// A device access token and how long SC says it lasts.
public struct SCAccessToken: Sendable, Equatable {
    public let token: Secret
    /// Seconds; nil when SC did not say.
    public let expiresIn: Int?

    public init(token: Secret, expiresIn: Int?) {
        self.token = token
        self.expiresIn = expiresIn
    }

    /// Reads the `{"status","reason","data":{"access_token","expires_in"}}` envelope.
    init(_ response: HTTPReply, endpoint: SCEndpoint) throws(ProvisioningError) {
        let envelope = try? JSONDecoder().decode(SCEnvelope.self, from: Data(response.body))
        if response.status == 401 || response.status == 403 {
            throw ProvisioningError.scRejected(status: nil, reason: envelope?.reason, httpStatus: response.status)
        }
        guard (200..<300).contains(response.status) else {
            throw ProvisioningError.scHTTPStatus(response.status, endpoint: endpoint)
        }
        guard let envelope, let status = envelope.status else { throw ProvisioningError.scUnreadable(endpoint) }
        guard status == 0 else {
            throw ProvisioningError.scRejected(status: status, reason: envelope.reason, httpStatus: response.status)
        }
        guard let token = envelope.data?.accessToken, !token.isEmpty else {
            throw ProvisioningError.scUnreadable(endpoint)
        }
        self.init(token: Secret(token), expiresIn: envelope.data?.expiresIn)
    }
}
