import Foundation
import Sockets
import TestSupport
import Testing

/// One Security 0 session against the harness's emulated device, which follows esp_http_server and
/// protocomm_httpd's connection and cookie rules.
@Suite(.enabled(if: HarnessDeviceHost.isAvailable, "needs Tests/Harness/ztharness/device_host.py and /usr/bin/python3"))
struct DeviceHostExchangeTests {
    @Test func completesASecurity0HandshakeOnOneConnectionWithTheCookie() async throws {
        let device = try await HarnessDeviceHost.start(deviceHost: [
            "protocomm": ["security": 0], "random": ["session_id": "0000beef"],
        ])
        let transport = HTTPProtocommTransport(device: try device.endpoint)

        let version = try await transport.exchange(
            endpoint: "proto-ver", payload: Array("ESP".utf8), until: .now + .seconds(5))
        let json = try JSONSerialization.jsonObject(with: Data(version)) as? [String: Any]
        let prov = try #require(json?["prov"] as? [String: Any])
        #expect(prov["sec_ver"] as? Int == 0)
        #expect((prov["cap"] as? [String])?.contains("no_sec") == true)

        // SessionData{sec0{sc{}}} as esp_prov sends it, and the device's Success reply.
        let reply = try await transport.exchange(
            endpoint: "prov-session", payload: [UInt8](hex: "52 03 a2 01 00"), until: .now + .seconds(5))
        #expect(reply == [UInt8](hex: "52 05 08 01 aa 01 00"))

        let requests = try device.records(event: "http_request")
        #expect(requests.map { $0["path"] as? String } == ["/proto-ver", "/prov-session"])
        #expect(requests.map { $0["cookie"] as? String } == [nil, "session=48879"])
        #expect(requests.map { $0["new_session"] as? Bool } == [true, false])
        #expect(Set(requests.compactMap { $0["connection"] as? Int }).count == 1)
        #expect(
            requests.map { $0["content_type"] as? String }
                == Array(repeating: "application/x-www-form-urlencoded", count: 2))
    }
}
