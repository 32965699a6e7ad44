import ArgumentParser
import Protocomm
import Provisioning
import Testing
import Transports

@testable import ztprov

/// How `softap`'s options become the flow's request, and which ones are refused before any join.
@Suite struct SoftAPCommandOptionsTests {
    static let required = ["--ap-ssid", "ZT_1A2B3C", "--ssid", "HomeNet"]
    static let network = ProtocommTargetNetwork(ssid: "HomeNet", passphrase: Secret("wifi-pass"))

    func request(_ arguments: [String], environment: [String: String] = ["ZTPROV_POP": "pop-1"]) throws
        -> SoftAPProvisioningRequest
    {
        let command = try SoftAPCommand.parse(Self.required + arguments)
        return try command.softAP.request(network: Self.network, environment: environment)
    }

    @Test func defaultsReachTheStockDeviceWithAutomaticSecurity() throws {
        let request = try request([])
        #expect(request.device == .softAPDefault)
        #expect(request.hotspot == SoftAPHotspot(ssid: "ZT_1A2B3C"))
        #expect(request.security.level == nil)
        #expect(request.security.proofOfPossession == Secret("pop-1"))
        #expect(request.security.srpPassword == Secret("pop-1"), "auto may meet a security 2 device")
        #expect(request.security.srpUsername == "wifiprov")
        #expect(!request.listsNetworks)
    }

    @Test func securityTwoTakesThePoPAsTheSRPPassword() throws {
        let request = try request(["--security", "2", "--sec2-patch", "0", "--srp-username", "alice"])
        #expect(request.security.level == .security2)
        #expect(request.security.patch == .fixedNonce)
        #expect(request.security.srpUsername == "alice")
        #expect(request.security.srpPassword == Secret("pop-1"))
        #expect(request.security.proofOfPossession == nil)
    }

    @Test func securityOneKeepsThePoPOutOfSRP() throws {
        let request = try request(["--security", "1"])
        #expect(request.security.proofOfPossession == Secret("pop-1"))
        #expect(request.security.srpPassword == nil)
    }

    @Test func theHotspotPasswordAndAddressComeFromTheirOptions() throws {
        let request = try request(
            ["--ap-password-env", "AP", "--device-address", "10.1.2.3:8080", "--list-networks"],
            environment: ["AP": "hotspot-pass"])
        #expect(request.hotspot.password == Secret("hotspot-pass"))
        #expect(request.device == DeviceEndpoint(10, 1, 2, 3, port: 8080))
        #expect(request.listsNetworks)
    }

    @Test func aForcedPoPSecurityWithoutAPoPIsAUsageError() throws {
        let command = try SoftAPCommand.parse(Self.required + ["--security", "1"])
        #expect(throws: ProvisioningError.self) {
            try command.softAP.request(network: Self.network, environment: [:], prompt: { _ in nil })
        }
    }

    @Test(arguments: [
        ["--ap-ssid", "", "--ssid", "HomeNet"],
        ["--ap-ssid", String(repeating: "a", count: 33), "--ssid", "HomeNet"],
        ["--ap-ssid", "ZT", "--ssid", String(repeating: "é", count: 17)],
        required + ["--security", "3"],
        required + ["--sec2-patch", "2"],
        required + ["--security", "1", "--sec2-patch", "1"],
        required + ["--srp-username", ""],
        required + ["--device-address", "192.168.4"],
        ["--ssid", "HomeNet"],
    ])
    func badOptionsAreRefusedBeforeAnyJoin(arguments: [String]) {
        #expect(throws: (any Error).self) { try SoftAPCommand.parse(arguments) }
    }
}
