import Logging
import Provisioning
import Synchronization
import Testing
import Transports

/// An SC stand-in: answers every request with one canned response (or failure) and keeps the requests.
final class CannedSC: HTTPExchange {
    private let answer: Result<HTTPReply, TestTransportFailure>
    private let requests = Mutex<[HTTPRequest]>([])

    init(_ answer: Result<HTTPReply, TestTransportFailure>) {
        self.answer = answer
    }

    convenience init(status: Int = 200, json: String) {
        self.init(.success(HTTPReply(status: status, body: Array(json.utf8))))
    }

    var received: [HTTPRequest] { requests.withLock { $0 } }

    func perform(_ request: HTTPRequest) async throws -> HTTPReply {
        requests.withLock { $0.append(request) }
        return try answer.get()
    }
}

struct TestTransportFailure: TransportFailure {
    var kind: TransportFailureKind
    var detail: String
}

@Suite struct SCAccessTokenClientTests {
    let endpoint = try! SCEndpoint("https://sc.test/")
    let session = try! SCSession(Secret("cookie-value"))

    func fetch(from sc: CannedSC) async throws(ProvisioningError) -> SCAccessToken {
        try await SCAccessTokenClient(exchange: sc, endpoint: endpoint, logger: Logger(label: "test"))
            .fetchAccessToken(session: session)
    }

    @Test func postsTheSessionCookieAndReadsTheToken() async throws {
        let sc = CannedSC(json: #"{"status":0,"reason":"","data":{"access_token":"AT-1","expires_in":3600}}"#)
        let token = try await fetch(from: sc)
        #expect(token == SCAccessToken(token: Secret("AT-1"), expiresIn: 3600))
        let request = try #require(sc.received.first)
        #expect(request.method == "POST")
        #expect(request.url == "https://sc.test/api/v2.0.0/oauth2/access_token")
        #expect(request.headers.contains(HTTPHeader("Cookie", "_session_=cookie-value")))
        #expect(request.body.isEmpty)
        #expect(!"\(request)".contains("cookie-value"))
    }

    @Test func expiresInMayBeAString() async throws {
        let sc = CannedSC(json: #"{"status":0,"data":{"access_token":"AT-1","expires_in":"7200"}}"#)
        #expect(try await fetch(from: sc).expiresIn == 7200)
    }

    @Test(arguments: [
        (200, #"{"status":2008,"reason":"login lost"}"#, ErrorCode.scTokenRejected, "login lost, status 2008"),
        (401, #"{"status":2009}"#, .scTokenRejected, "refused"),
        (502, "<html>bad gateway</html>", .scHTTPError, "HTTP 502"),
        (200, "<html>login page</html>", .scBadResponse, "no access token"),
        (200, #"{"status":0,"data":{"access_token":""}}"#, .scBadResponse, "no access token"),
        (302, "", .scHTTPError, "HTTP 302"),
    ])
    func refusalsBecomeClearErrors(status: Int, body: String, code: ErrorCode, phrase: String) async {
        let error = await failure { () async throws(ProvisioningError) in
            try await fetch(from: CannedSC(status: status, json: body))
        }
        #expect(error?.code == code)
        #expect(error?.message.contains(phrase) == true, "\(String(describing: error))")
        #expect(error?.hint.isEmpty == false)
    }

    @Test(arguments: [
        (TransportFailureKind.timedOut, ErrorCode.scTimeout, Provisioning.ExitStatus.timeout),
        (.unreachable, .scUnreachable, .linkFailure),
        (.refused, .scUnreachable, .linkFailure),
    ])
    func transportFailuresKeepTheirDetail(kind: TransportFailureKind, code: ErrorCode, status: Provisioning.ExitStatus)
        async
    {
        let sc = CannedSC(.failure(TestTransportFailure(kind: kind, detail: "curl said no")))
        let error = await failure { () async throws(ProvisioningError) in try await fetch(from: sc) }
        #expect(error?.code == code)
        #expect(error?.exitStatus == status)
        #expect(error?.detail == "curl said no")
    }

    @Test(arguments: [
        ("abc", "_session_=abc"),
        ("  abc \n", "_session_=abc"),
        ("_session_=abc", "_session_=abc"),
        ("Cookie: _session_=abc; lang=zh", "_session_=abc; lang=zh"),
    ])
    func sessionFilesMayHoldTheValueThePairOrTheHeader(contents: String, header: String) async throws {
        let sc = CannedSC(json: #"{"status":0,"data":{"access_token":"AT"}}"#)
        _ = try await SCAccessTokenClient(exchange: sc, endpoint: endpoint, logger: Logger(label: "test"))
            .fetchAccessToken(session: try SCSession(Secret(contents)))
        #expect(sc.received.first?.headers.contains(HTTPHeader("Cookie", header)) == true)
    }

    @Test func anEmptySessionFileIsRefused() {
        #expect(throws: ProvisioningError.self) { try SCSession(Secret(" \n")) }
    }

    @Test(arguments: ["https://gz.sc.zhitingtech.com", "http://127.0.0.1:8080/", "HTTPS://sc.test"])
    func endpointsAcceptBaseURLs(text: String) throws {
        let endpoint = try SCEndpoint(text)
        #expect(!endpoint.baseURL.hasSuffix("/"))
        #expect(["gz.sc.zhitingtech.com", "127.0.0.1", "sc.test"].contains(endpoint.host))
    }

    @Test(arguments: ["gz.sc.zhitingtech.com", "ftp://sc.test", "https://", "https://sc.test/api", "https://u@sc.test"])
    func endpointsRefuseAnythingElse(text: String) {
        #expect(throws: ProvisioningError.self) { try SCEndpoint(text) }
    }
}
