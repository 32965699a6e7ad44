import ArgumentParser
import Provisioning
import Testing
import Transports
import ZhitingLAN

@testable import ztprov

@Suite struct LANCommandOptionsTests {
    @Test func deviceAddressTakesTheLANPortByDefault() throws {
        let options = try LANOptions.parse(["--device-address", "192.0.2.7", "--lan-port", "5000"])
        #expect(options.target(deviceID: nil).address == DatagramEndpoint(parsing: "192.0.2.7:5000", defaultPort: 0))
        let explicit = try LANOptions.parse(["--device-address", "192.0.2.7:6000"])
        #expect(explicit.target(deviceID: nil).address?.port == 6000)
        #expect(try LANOptions.parse([]).target(deviceID: nil).address == nil)
    }

    @Test(arguments: ["192.0.2", "host.example", "192.0.2.7:99999", "256.0.0.1"])
    func malformedAddressesAreRefused(address: String) {
        #expect(throws: (any Error).self) { try LANOptions.parse(["--device-address", address]) }
    }

    @Test func framingFollowsTheChoices() throws {
        #expect(try LANOptions.parse([]).framing == ZhitingRequestFraming())
        let legacy = try LANOptions.parse(["--lan-reserved", "ffff", "--lan-checksum", "digest"])
        #expect(legacy.framing == ZhitingRequestFraming(reserved: .allOnes, checksum: .packetDigest))
    }

    @Test func handoffNeedsADeviceAndAnArea() throws {
        #expect(throws: (any Error).self) { try HandoffCommand.parse(["--area-id", "1"]) }
        #expect(throws: (any Error).self) { try HandoffCommand.parse(["--device-id", "a1b2c3d4e5f6"]) }
        #expect(throws: (any Error).self) { try HandoffCommand.parse(["--device-id", "nothex", "--area-id", "1"]) }
        let command = try HandoffCommand.parse(["--device-id", "A1:B2:C3:D4:E5:F6", "--area-id", "1"])
        #expect(command.deviceID?.description == "a1b2c3d4e5f6")
    }

    @Test(arguments: [
        ["--sc-url", "https://sc.test", "--access-token-file", "t"],
        ["--sc-session-file", "s"],
        ["--server", "https://gz.sc.zhitingtech.com"],
        ["--server", "gz.sc.zhitingtech.com:54321"],
        ["--port", "0"],
    ])
    func contradictoryHandoffOptionsAreUsageErrors(arguments: [String]) {
        #expect(throws: (any Error).self) {
            try HandoffCommand.parse(["--device-id", "a1b2c3d4e5f6", "--area-id", "1"] + arguments)
        }
    }

    @Test func discoveryListensThreeSecondsByDefault() throws {
        #expect(try DiscoverCommand.parse([]).listen == 3)
        #expect(throws: (any Error).self) { try DiscoverCommand.parse(["--listen", "0"]) }
    }

    @Test func theTimeoutBoundsTheWholeCommand() throws {
        #expect(try TimeoutOption.parse([]).duration(default: .seconds(45)) == .seconds(45))
        #expect(try TimeoutOption.parse(["--timeout", "1.5"]).duration(default: .seconds(45)) == .milliseconds(1500))
        #expect(throws: (any Error).self) { try TimeoutOption.parse(["--timeout", "-1"]) }
    }
}
