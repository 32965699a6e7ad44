import Testing
import Transports

@testable import Sockets

@Suite struct HTTPProtocommRequestTests {
    @Test func laysOutThePostAsEspProvDoes() throws {
        let request = try HTTPProtocommRequest(endpoint: "prov-session", payload: [0x01, 0x02, 0x03])
        let cookie = try #require(HTTPSessionCookie(from: Self.response(setting: ["session=42"])))
        let expected =
            "POST /prov-session HTTP/1.1\r\nHost: 192.168.4.1\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nAccept: text/plain\r\n"
            + "Content-Length: 3\r\nCookie: session=42\r\n\r\n"
        #expect(request.encoded(for: .softAPDefault, cookie: cookie) == Array(expected.utf8) + [0x01, 0x02, 0x03])
    }

    @Test func namesTheHostWithItsPortOnlyWhenThePortIsNot80() throws {
        let request = try HTTPProtocommRequest(endpoint: "proto-ver", payload: Array("ESP".utf8))
        let head = String(
            decoding: request.encoded(for: DeviceEndpoint(127, 0, 0, 1, port: 8080), cookie: nil), as: UTF8.self)
        #expect(head.contains("\r\nHost: 127.0.0.1:8080\r\n"))
        #expect(!head.contains("Cookie"))
    }

    @Test(arguments: [0, 4097])
    func refusesPayloadSizesTheDeviceRefuses(size: Int) {
        #expect(throws: HTTPTransportError.payloadSizeOutOfRange(size)) {
            try HTTPProtocommRequest(endpoint: "prov-config", payload: [UInt8](repeating: 0, count: size))
        }
    }

    @Test(arguments: [
        "", "prov session", "prov/session", "prov-session\r\nX: y", "é", String(repeating: "a", count: 65),
    ])
    func refusesEndpointNamesAPathCannotCarry(name: String) {
        #expect(throws: HTTPTransportError.invalidEndpointName(name)) {
            try HTTPProtocommRequest(endpoint: name, payload: [0])
        }
    }

    @Test(arguments: [
        (["session=3735928559"], "session=3735928559"),
        (["session=7; Path=/; HttpOnly"], "session=7"),
        (["other=1", "session=7", "more=2"], "session=7"),
        (["session=1", "session=2"], "session=2"),
    ])
    func keepsTheSessionPairVerbatim(setCookies: [String], headerValue: String) {
        #expect(HTTPSessionCookie(from: Self.response(setting: setCookies))?.headerValue == headerValue)
    }

    @Test(arguments: [[], ["other=1"], ["session="], ["session=a b"], ["Session=5"], ["session=\"5\""]])
    func ignoresAnythingButAUsableSessionCookie(setCookies: [String]) {
        #expect(HTTPSessionCookie(from: Self.response(setting: setCookies)) == nil)
    }

    static func response(setting cookies: [String]) -> HTTPResponse {
        HTTPResponse(
            version: "HTTP/1.1", statusCode: 200, reasonPhrase: "OK",
            headerFields: cookies.map { HTTPHeaderField(name: "Set-Cookie", value: $0) }, body: [])
    }
}
