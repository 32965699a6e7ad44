import ArgumentParser
import Testing

@testable import ztprov

/// `report --serve ADDRESS:PORT`: what is an address, what is loopback, and what the command refuses.
@Suite struct ServeAddressTests {
    @Test(arguments: [
        ("127.0.0.1:9464", "127.0.0.1", 9464, true), ("127.8.9.10:0", "127.8.9.10", 0, true),
        ("localhost:80", "localhost", 80, true), ("[::1]:9464", "::1", 9464, true),
        ("0.0.0.0:9464", "0.0.0.0", 9464, false), ("192.0.2.7:1", "192.0.2.7", 1, false),
        ("[::]:9464", "::", 9464, false), ("[fe80::1]:9464", "fe80::1", 9464, false),
    ])
    func addressesParseAndSayWhetherOnlyThisHostReachesThem(
        _ text: String, _ host: String, _ port: Int, _ loopback: Bool
    )
        throws
    {
        let address = try #require(ServeAddress(argument: text))
        #expect(address.host == host && address.port == port)
        #expect(address.isLoopback == loopback)
        #expect(address.authority == text)
    }

    @Test(arguments: [
        "9464", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "256.0.0.1:80", "1.2.3:80",
        "factory.lan:80", "[::1:80", "[]:80", "[::1]x:80", "127.0.0.1:80 ", "<script>:80",
    ])
    func otherTextIsRefused(_ text: String) {
        #expect(ServeAddress(argument: text) == nil)
    }

    @Test func aNonLoopbackAddressNeedsTheFlagAndServingTakesNoFormat() throws {
        #expect(throws: (any Error).self) { try ReportCommand.parse(["--serve", "0.0.0.0:9464"]) }
        let beyond = try ReportCommand.parse(["--serve", "0.0.0.0:9464", "--serve-beyond-loopback"])
        #expect(beyond.serve == ServeAddress(host: "0.0.0.0", port: 9464))
        let loopback = try ReportCommand.parse(["--serve", "127.0.0.1:0", "--quiet-after", "3"])
        #expect(loopback.quietAfter == 3 && loopback.format == nil)
        #expect(throws: (any Error).self) { try ReportCommand.parse(["--serve", "127.0.0.1:0", "--format", "csv"]) }
        #expect(throws: (any Error).self) { try ReportCommand.parse(["--serve", "127.0.0.1:0", "--quiet-after", "0"]) }
    }
}
