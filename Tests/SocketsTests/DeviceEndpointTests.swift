import Testing
import Transports

@Suite struct DeviceEndpointTests {
    @Test func defaultsToTheSoftAPGatewayOnPort80() {
        #expect(DeviceEndpoint.softAPDefault.description == "192.168.4.1:80")
        #expect(DeviceEndpoint("192.168.4.1") == .softAPDefault)
        #expect(DeviceEndpoint("192.168.4.1:80") == .softAPDefault)
    }

    @Test func parsesAnAddressWithAPort() throws {
        let endpoint = try #require(DeviceEndpoint("127.0.0.1:8080"))
        #expect(endpoint.octets == [127, 0, 0, 1])
        #expect(endpoint.port == 8080)
        #expect(endpoint.host == "127.0.0.1")
    }

    @Test(arguments: [
        "", "192.168.4", "192.168.4.1.5", "192.168.4.256", "01.2.3.4", "1..3.4", "1.2.3.4:", "1.2.3.4:0",
        "1.2.3.4:65536", "1.2.3.4:+80", "1.2.3.4:80:1", "device.local", "::1", "１.2.3.4",
    ])
    func refusesAnythingButADottedQuadAndPort(text: String) {
        #expect(DeviceEndpoint(text) == nil)
    }
}
