import Logging
import Provisioning
import Sockets
import TestSupport
import Testing
import Transports

/// The SC access-token client over our own HTTP client, against the fake SC on loopback.
@Suite(.serialized) struct SocketHTTPExchangeTests {
    let sc: FakeSCServer

    init() async throws {
        sc = try await FakeSCServer.start()
    }

    func fetch(cookie: String, timeout: Duration = .seconds(5)) async throws(ProvisioningError) -> SCAccessToken {
        let client = SCAccessTokenClient(
            exchange: SocketHTTPExchange(),
            endpoint: try SCEndpoint(sc.baseURL),
            timeout: timeout,
            logger: Logger(label: "test")
        )
        return try await client.fetchAccessToken(session: try SCSession(Secret(cookie)))
    }

    func failure(cookie: String, timeout: Duration = .seconds(5)) async -> ProvisioningError? {
        do {
            _ = try await fetch(cookie: cookie, timeout: timeout)
            return nil
        } catch {
            return error
        }
    }

    @Test func fetchesTheTokenWithTheSessionCookie() async throws {
        let token = try await fetch(cookie: "good")
        #expect(token == SCAccessToken(token: Secret("AT-from-sc"), expiresIn: 3600))
    }

    @Test func anExpiredSessionIsRejected() async {
        let error = await failure(cookie: "expired")
        #expect(error?.code == .scTokenRejected)
        #expect(error?.message.contains("login lost") == true)
    }

    @Test func anUnknownSessionIsRejected() async {
        #expect(await failure(cookie: "nobody")?.code == .scTokenRejected)
    }

    @Test func aServerErrorIsAnHTTPError() async {
        #expect(await failure(cookie: "broken")?.code == .scHTTPError)
    }

    @Test func redirectsAreNotFollowedWithTheCookie() async {
        let error = await failure(cookie: "moved")
        #expect(error?.code == .scHTTPError)
        #expect(error?.message.contains("HTTP 302") == true)
    }

    @Test func aSlowServerTimesOut() async {
        let error = await failure(cookie: "slow", timeout: .milliseconds(500))
        #expect(error?.code == .scTimeout)
    }

    @Test func aClosedPortIsUnreachable() async throws {
        let closed = try UDPDatagramLink(.init(localPort: 0))
        let port = try closed.localEndpoint().port
        closed.close()
        let client = SCAccessTokenClient(
            exchange: SocketHTTPExchange(),
            endpoint: try SCEndpoint("http://127.0.0.1:\(port)"),
            logger: Logger(label: "test")
        )
        let error: ProvisioningError?
        do {
            _ = try await client.fetchAccessToken(session: try SCSession(Secret("good")))
            error = nil
        } catch let caught {
            error = caught
        }
        #expect(error?.code == .scUnreachable)
        #expect(error?.detail?.isEmpty == false)
    }

    @Test func fetchesTheTokenOverHTTPSFromAServerItTrusts() async throws {
        let tls = try await FakeSCServer.start(tls: true)
        let token = try await fetch(from: tls, trusting: tls.trustedCertificates)
        #expect(token == SCAccessToken(token: Secret("AT-from-sc"), expiresIn: 3600))
    }

    @Test func aCertificateTheSystemDoesNotTrustIsRefused() async throws {
        let tls = try await FakeSCServer.start(tls: true)
        let error = await failure { try await fetch(from: tls, trusting: nil) }
        #expect(error?.code == .scUnreachable)
        #expect(
            error?.detail?.contains("certificate verification failed") == true, "\(String(describing: error?.detail))")
    }

    /// The certificate names 127.0.0.1 only; `localhost` reaches the same server but is not its name.
    @Test func aCertificateForAnotherNameIsRefused() async throws {
        let tls = try await FakeSCServer.start(tls: true)
        let url = tls.baseURL.replacing("127.0.0.1", with: "localhost")
        let error = await failure { try await fetch(from: tls, url: url, trusting: tls.trustedCertificates) }
        #expect(error?.code == .scUnreachable)
        #expect(
            error?.detail?.contains("certificate verification failed") == true, "\(String(describing: error?.detail))")
    }

    @Test func plainHTTPToATLSServerFailsWithoutHanging() async throws {
        let tls = try await FakeSCServer.start(tls: true)
        let url = tls.baseURL.replacing("https://", with: "http://")
        let error = await failure { try await fetch(from: tls, url: url, trusting: nil, timeout: .seconds(3)) }
        #expect(error != nil)
    }

    func fetch(from server: FakeSCServer, url: String? = nil, trusting: String?, timeout: Duration = .seconds(5))
        async throws(ProvisioningError) -> SCAccessToken
    {
        let client = SCAccessTokenClient(
            exchange: SocketHTTPExchange(trustedCertificates: trusting),
            endpoint: try SCEndpoint(url ?? server.baseURL),
            timeout: timeout,
            logger: Logger(label: "test")
        )
        return try await client.fetchAccessToken(session: try SCSession(Secret("good")))
    }

    func failure(_ body: () async throws -> SCAccessToken) async -> ProvisioningError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? ProvisioningError
        }
    }
}
