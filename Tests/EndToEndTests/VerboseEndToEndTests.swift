import Foundation
import TestSupport
import Testing

/// `-v` tells what happens underneath: the D-Bus calls to BlueZ and NetworkManager with their
/// outcome and time, the HTTP exchanges and the UDP datagrams with their sizes, and never a secret,
/// not even the frames that carry one in the clear (`--security none`). Part of the serialized BLE
/// suite, so it adds no harness running in parallel with the others.
extension BLEEndToEndTests {
    /// Lines of the form `debug: [label] …`, for each label.
    static func debugLines(_ text: String, label: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.hasPrefix("debug: [\(label)] ") }
    }

    @Test func bleShowsBlueZCallsAndHandOffDatagramsWithoutSecrets() async throws {
        try await withHarness(scenario: BLEEndToEndTests.scenario()) { h in
            let outcome = try await BLEEndToEndTests.ble(
                h,
                [
                    "--security", "none", "--area-id", "42", "--access-token-env", "ZTPROV_E2E_TOKEN",
                    "--lan-interface", h.topology.hostInterface,
                ]
            ).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            let dbus = Self.debugLines(outcome.standardError, label: "ztprov.dbus")
            for member in ["org.bluez.Device1.Connect on ", "org.bluez.GattCharacteristic1.WriteValue on "] {
                #expect(dbus.contains { $0.contains("D-Bus org.bluez \(member)") && $0.contains(" ms") }, "\(dbus)")
            }
            #expect(dbus.contains { $0.contains("WriteValue") && $0.contains("(2 arguments): 0 values in ") })
            let udp = Self.debugLines(outcome.standardError, label: "ztprov.udp")
            #expect(udp.contains { $0.contains("UDP send ") && $0.contains(" bytes to ") }, "\(udp)")
            #expect(udp.contains { $0.contains("UDP received ") && $0.contains(" bytes from ") }, "\(udp)")
            for secret in [BLEEndToEndTests.wifiPassword, BLEEndToEndTests.accessToken] {
                #expect(!outcome.everything.contains(secret))
                let hex = secret.utf8.map { String(format: "%02x", $0) }.joined()
                #expect(!outcome.everything.lowercased().contains(hex))
            }
            try await BLEEndToEndTests.expectCleanAndSilent(outcome, h)
        }
    }

    @Test func withoutVerboseNoDebugLineIsPrinted() async throws {
        try await withHarness(scenario: BLEEndToEndTests.scenario()) { h in
            var launch = try BLEEndToEndTests.ble(h)
            launch.arguments.removeAll { $0 == "--verbose" }
            let outcome = try await launch.run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            #expect(!outcome.standardError.contains("debug: "), "\(outcome.standardError)")
        }
    }

    @Test func softAPShowsNetworkManagerCallsAndHTTPExchangesWithoutSecrets() async throws {
        let scenario = SoftAPEndToEndTests.scenario(protocomm: [
            "security": 1, "pop": .string(SoftAPEndToEndTests.proofOfPossession),
        ])
        try await withHarness(scenario: scenario) { h in
            let outcome = try await SoftAPEndToEndTests().launch(h, ["-v"]).run()
            #expect(outcome.exitStatus == 0, "\(outcome.standardError)")
            let nm = Self.debugLines(outcome.standardError, label: "ztprov.networkmanager")
            #expect(nm.contains { $0.contains("NetworkManager client start-up") && $0.contains(": ok in ") }, "\(nm)")
            #expect(nm.contains { $0.contains("ActivateConnection") && $0.contains(" ms") }, "\(nm)")
            let http = Self.debugLines(outcome.standardError, label: "ztprov.http")
            for endpoint in ["/proto-ver", "/prov-session", "/prov-config"] {
                #expect(
                    http.contains { $0.contains("HTTP POST \(endpoint) (") && $0.contains("): 200, ") }, "\(http)")
            }
            for secret in SoftAPEndToEndTests.secrets {
                #expect(!outcome.everything.contains(secret), "\(secret) was printed")
            }
            try await SoftAPEndToEndTests().expectCleanHost(h, outcome)
        }
    }
}
