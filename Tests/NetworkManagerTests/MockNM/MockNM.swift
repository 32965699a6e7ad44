import NetworkManager
import TestSupport
import Testing
import Transports

/// Shared settings of the suites against the NetworkManager mock: the mock's Wi-Fi interface and the hotspot it offers.
enum MockNM {
    static let interface = "zhtest0"
    static let ssid = "ZT_1A2B3C"
    static let passphrase = "hotspot-pass"
    static let skipMessage = "needs dbus-daemon, dbus-send, python3-dbusmock and Tests/Harness nm_softap_template.py"

    static func request(
        ssid: String = ssid,
        passphrase: String? = passphrase,
        scan: Duration = .seconds(5),
        activation: Duration = .seconds(5),
        restore: Duration = .seconds(5)
    ) -> WiFiJoinRequest {
        WiFiJoinRequest(
            ssid: ssid, passphrase: passphrase,
            timeouts: .init(scan: scan, activation: activation, restore: restore))
    }

    /// Mock parameters: fast steps and the interface, plus what a test changes.
    static func parameters(_ overrides: [String: any Sendable] = [:]) -> [String: any Sendable] {
        ["interface": interface, "step_ms": 30].merging(overrides) { $1 }
    }

    static func joiner(_ mock: NMSoftAPMock) throws -> NMSoftAPJoiner {
        try NMSoftAPJoiner(configuration: .init(busAddress: mock.bus.address))
    }

    /// The host as it was before the join: the previous connection active again and no ztprov profile.
    static func expectRestored(_ mock: NMSoftAPMock, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let state = try await mock.state()
        #expect(state.onlyActive("HomeWiFi"), sourceLocation: sourceLocation)
        #expect(state.temporaryProfiles.isEmpty, sourceLocation: sourceLocation)
    }
}
