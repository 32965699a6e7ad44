import Foundation
import Records
import SQLiteRecordStore
import TestSupport
import Testing

/// `ztprov batch --path softap`: units named by hotspot SSID, joined one after another through the
/// NetworkManager mock, each leaving the host on its previous connection. The one device host plays
/// every unit, so after the first success the others fail before sending settings: one with a PoP
/// of its own that is wrong, one whose hotspot is absent.
@Suite(.serialized, .requiresHarnessHost)
struct BatchSoftAPEndToEndTests {
    static func scenario() -> JSONValue {
        let hotspots: [JSONValue] = ["ZT_U1", "ZT_U2"].enumerated().map { index, ssid in
            [
                "ssid": .string(ssid), "bssid": .string("24:0A:C4:E2:E0:0\(index + 1)"), "strength": 80,
                "frequency": 2412, "psk": .string(SoftAPEndToEndTests.hotspotPassword),
            ]
        }
        return [
            "nm": [
                "step_ms": 50, "not_found_steps": 3, "access_points": .array(hotspots),
                "previous_connection": ["id": "HomeE2E", "ssid": "HomeNet"],
            ],
            "device_host": [
                "protocomm": [
                    "security": 1, "pop": .string(SoftAPEndToEndTests.proofOfPossession),
                    "ap_bssid": "24:0a:c4:e2:e0:01", "auto_stop": false,
                ]
            ],
        ]
    }

    @Test func provisionsEachHotspotWithItsOwnOrTheSharedPoP() async throws {
        let temporary = try TemporaryDirectory("batch")
        defer { temporary.remove() }
        let directory = temporary.url
        try "ssid,pop\nZT_U1,\nZT_U2,not-the-pop\nZT_ABSENT,\n".write(
            to: directory.appendingPathComponent("units.csv"), atomically: true, encoding: .utf8)
        try await withHarness(scenario: Self.scenario()) { h in
            let launch = try h.ztprov(
                [
                    "batch", "--path", "softap", "--devices", directory.appendingPathComponent("units.csv").path,
                    "--wifi-interfaces", h.topology.hostInterface, "--ssid", "HomeNet", "--password-env", "E2E_WIFI",
                    "--ap-password-env", "E2E_AP", "--pop-env", "E2E_POP", "--attempt-timeout", "8",
                    "--db", directory.appendingPathComponent("records.sqlite").path, "--json",
                ],
                environment: [
                    "E2E_AP": SoftAPEndToEndTests.hotspotPassword, "E2E_POP": SoftAPEndToEndTests.proofOfPossession,
                    "E2E_WIFI": SoftAPEndToEndTests.wifiPassword,
                ], deadline: .seconds(120))
            let outcome = try await launch.run()
            #expect(outcome.exitStatus == 10, "\(outcome)")

            let store = try await SQLiteRecordStore(path: directory.appendingPathComponent("records.sqlite").path)
            let records = try await store.records(matching: RecordQuery())
            let finals = Dictionary(uniqueKeysWithValues: records.filter(\.isFinal).map { ($0.deviceKey, $0) })
            #expect(finals["ZT_U1"]?.code == "ok")
            #expect(finals["ZT_U2"]?.code == "protocomm.wrong-pop")
            #expect(finals["ZT_ABSENT"]?.code == "softap.hotspot-not-found")
            #expect(records.count == 3, "neither failure is retried: \(records.map(\.code))")
            #expect(finals["ZT_U2"]?.address == "24:0A:C4:E2:E0:02")
            #expect(finals["ZT_U1"]?.deviceID == "240ac4e2e001", "the hotspot's BSSID names the device")
            #expect(finals["ZT_U2"]?.deviceID == "240ac4e2e002", "a failed attempt keeps the ID it learned")
            #expect(finals["ZT_U1"]?.security == "sec1")
            #expect(finals["ZT_U1"]?.steps.map(\.name).first == "join-hotspot")
            #expect(finals["ZT_U1"]?.path == .softAP)
            try await SoftAPEndToEndTests().expectCleanHost(h, outcome)
            let bytes =
                try Data(contentsOf: directory.appendingPathComponent("records.sqlite-wal"))
                + Data(contentsOf: directory.appendingPathComponent("records.sqlite"))
            for secret in SoftAPEndToEndTests.secrets + ["not-the-pop"] {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "the records hold \(secret)")
            }
        }
    }
}
