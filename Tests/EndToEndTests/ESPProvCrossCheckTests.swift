import Foundation
import TestSupport
import Testing

/// Espressif's own esp_prov client code provisions the harness's protocomm-over-BLE device model
/// (`Tests/Harness/esp_prov_check.py` over bleak on the harness bus), so the model is checked against
/// an implementation that is not ours: security 0 with custom data at MTU 23 (long writes), security 1
/// with a PoP, a wrong passphrase, the prov-ctrl reset and a retry, security 2 with both IV patch
/// versions, a Wi-Fi scan read four entries at a time, and a device that forces link encryption where
/// BlueZ pairs by itself on the refused access (bleak never pairs on Linux).
@Suite(.requiresHarnessHost, .requiresESPProvVenv)
struct ESPProvCrossCheckTests {
    static let passphrase = "correct horse"
    static let wrongPassphrase = "wrong horse"
    static let networks: [String] = ["HomeNet", "Guest", "Attic", "Garage", "Shed"]

    /// One device per run below, all on hci0, each advertising PROV_ and its last three address bytes.
    static let scenario: JSONValue = {
        let fast: [String: JSONValue] = ["advertise_delay_ms": 50, "resolve_delay_ms": 50]
        func device(
            _ suffix: String, mtu: Int, _ protocomm: [String: JSONValue], pairing: JSONValue = [:]
        ) -> JSONValue {
            var entry = fast
            entry["address"] = .string("24:0A:C4:00:E5:\(suffix)")
            entry["mtu"] = .number(Double(mtu))
            var settings = protocomm
            settings["connecting_polls"] = 1
            settings["target_passphrase"] = .string(passphrase)
            entry["protocomm_ble"] = ["protocomm": .object(settings), "pairing": pairing]
            return .object(entry)
        }
        let scanList: [JSONValue] = networks.enumerated().map { index, ssid in
            [
                "ssid": .string(ssid), "channel": .number(Double(1 + index)), "rssi": .number(Double(-40 - 10 * index)),
                "bssid": .string("aa:bb:cc:00:00:0\(index)"), "auth": 3,
            ]
        }
        return [
            "bluez": [
                "devices": [
                    device("00", mtu: 23, ["security": 0]),
                    device("01", mtu: 185, ["security": 1, "pop": "abcd1234", "auto_reset_on_failure": true]),
                    device("02", mtu: 517, ["security": 2, "sec2_patch": 1, "networks": .array(scanList)]),
                    device("03", mtu: 517, ["security": 2, "sec2_patch": 0]),
                    device("04", mtu: 185, ["security": 0], pairing: ["required": true, "auto_pair_on_access": true]),
                ]
            ]
        ]
    }()

    /// esp_prov_check.py for the device named `name`, with the secrets in its environment.
    static func check(_ h: HarnessSession, _ name: String, _ options: [String]) async throws -> ProcessOutcome {
        let script = RepositoryLayout.harnessDirectory.appending(path: "esp_prov_check.py").path
        var launch = ProcessLaunch(
            ESPProvVenv.python,
            [script, "--name", name, "--ssid", "HomeNet", "--passphrase-env", "CHECK_PASSPHRASE"] + options)
        launch.environment = h.toolEnvironment.merging([
            "CHECK_PASSPHRASE": passphrase, "CHECK_WRONG": wrongPassphrase, "CHECK_POP": "abcd1234",
            "CHECK_SRP": "abcd1234",
        ]) { $1 }
        launch.deadline = .seconds(90)
        return try await launch.run()
    }

    /// The check's JSON summary: the last line of its standard output (esp_prov prints progress before it).
    static func summary(_ outcome: ProcessOutcome) throws -> JSONValue {
        let line = outcome.standardOutput.split(separator: "\n").last.map(String.init) ?? ""
        return try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
    }

    @Test func espProvProvisionsTheModelWithEverySecurity() async throws {
        try await withHarness(scenario: Self.scenario) { h in
            // In parallel: each run spends most of its time in esp_prov's fixed 5 s BLE discovery.
            async let sec0 = Self.check(h, "PROV_00E500", ["--custom-data", "hello"])
            async let sec1 = Self.check(
                h, "PROV_00E501", ["--pop-env", "CHECK_POP", "--wrong-passphrase-env", "CHECK_WRONG"])
            async let sec2 = Self.check(
                h, "PROV_00E502", ["--sec-ver", "2", "--sec2-password-env", "CHECK_SRP", "--scan"])
            async let sec2Legacy = Self.check(h, "PROV_00E503", ["--sec-ver", "2", "--sec2-password-env", "CHECK_SRP"])
            async let paired = Self.check(h, "PROV_00E504", [])
            let outcomes = try await [sec0, sec1, sec2, sec2Legacy, paired]
            for outcome in outcomes {
                #expect(outcome.succeeded, "\(outcome)")
            }
            let summaries = try outcomes.map(Self.summary)
            #expect(summaries[0]["custom_data_answer"] == "SUCCESS\u{0}")
            #expect(summaries[1]["sec_ver"] == 1 && summaries[1]["reset"] == "accepted")
            #expect(summaries[2]["networks"] == .array(Self.networks.map { .string($0) }))
            #expect(summaries[2]["proto_ver"]?["prov"]?["sec_patch_ver"] == 1)
            #expect(summaries[3]["proto_ver"]?["prov"]?["sec_patch_ver"] == 0)
            for summary in summaries {
                #expect(summary["result"] == "connected", "\(summary)")
            }

            let records = try await h.received().array ?? []
            func record(_ suffix: String) -> JSONValue? {
                records.first { $0["address"] == .string("24:0A:C4:00:E5:\(suffix)") }
            }
            let events = record("01")?["protocomm"]?.array ?? []
            let passphrases = events.filter { $0["event"] == "set_config" }.compactMap { $0["passphrase"]?.string }
            #expect(passphrases == [Self.wrongPassphrase, Self.passphrase])
            #expect(events.contains { $0["event"] == "ctrl_reset" && $0["status"] == 0 })
            let smallMTUWrites = (record("00")?["exchanges"]?.array ?? []).compactMap { $0["write_pdus"] }
            #expect(smallMTUWrites.contains { $0 != 1 }, "MTU 23: some request went as a long write")
            let pairing = (record("04")?["ble"]?["events"]?.array ?? []).filter { $0["event"] == "paired" }
            #expect(pairing.count == 1 && pairing.first?["detail"]?["how"] == "on-access", "\(pairing)")
            let largeMTUWrites = (record("02")?["exchanges"]?.array ?? []).compactMap { $0["write_pdus"] }
            #expect(!largeMTUWrites.isEmpty && largeMTUWrites.allSatisfy { $0 == 1 }, "MTU 517: no long write")
        }
    }
}
