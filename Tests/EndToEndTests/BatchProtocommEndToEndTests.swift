import Foundation
import Records
import SQLiteRecordStore
import TestSupport
import Testing

/// `ztprov batch --path ble` with ESP provisioning QR payloads (`"transport":"ble"`) as the units: each
/// such unit runs protocomm over BLE against the harness's Python network_provisioning model, next to a
/// BluFi unit named by its address, and every record and JSON event says which protocol ran.
@Suite(.serialized, .requiresHarnessHost)
struct BatchProtocommEndToEndTests {
    static let wifiPassword = "pw-Factory-5521"
    static let pops = ["pop-unit-one-8813", "srp-unit-two-2290"]
    static let protocommAddresses = ["24:0A:C4:00:73:01", "24:0A:C4:00:73:02"]
    static let bluFiAddress = "24:0A:C4:00:73:03"

    static func protocommDevice(_ address: String, _ protocomm: [String: JSONValue]) -> JSONValue {
        var model: [String: JSONValue] = [
            "connecting_polls": 1, "cleanup_delay_ms": 2000, "target_ssid": "Factory",
            "target_passphrase": .string(wifiPassword),
        ]
        model.merge(protocomm) { $1 }
        return [
            "address": .string(address), "advertise_delay_ms": 50, "resolve_delay_ms": 50,
            "protocomm_ble": ["protocomm": .object(model)],
        ]
    }

    @Test func qrPayloadUnitsRunProtocommAndTheRecordsSaySo() async throws {
        let scenario: JSONValue = [
            "bluez": [
                "devices": [
                    Self.protocommDevice(Self.protocommAddresses[0], ["security": 1, "pop": .string(Self.pops[0])]),
                    Self.protocommDevice(
                        Self.protocommAddresses[1],
                        ["security": 2, "srp_username": "factory", "srp_password": .string(Self.pops[1])]),
                    [
                        "address": .string(Self.bluFiAddress), "name": "MH-7303", "advertise_delay_ms": 50,
                        "resolve_delay_ms": 50,
                        "blufi": [
                            "target_ssid": "Factory", "target_password": .string(Self.wifiPassword),
                            "device_id": "240ac4007303",
                        ],
                    ],
                ]
            ]
        ]
        try await withHarness(scenario: scenario) { h in
            let directory = h.runDirectory.appendingPathComponent("batch-protocomm")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let units = [
                #"{"ver":"v1","name":"PROV_007301","pop":"\#(Self.pops[0])","transport":"ble","security":1}"#,
                #"{"ver":"v1","name":"PROV_007302","pop":"\#(Self.pops[1])","transport":"ble","security":2,"username":"factory","network":"wifi"}"#,
                Self.bluFiAddress,
            ]
            let unitsFile = directory.appendingPathComponent("units.txt")
            try units.joined(separator: "\n").write(to: unitsFile, atomically: true, encoding: .utf8)
            let database = directory.appendingPathComponent("records.sqlite")
            let launch = try h.ztprov(
                [
                    "batch", "--devices", unitsFile.path, "--ssid", "Factory", "--db", database.path, "--station",
                    "line-2", "--json", "--verbose", "--retries", "0",
                ], environment: ["ZTPROV_WIFI_PASSWORD": Self.wifiPassword], deadline: .seconds(150))
            let outcome = try await launch.run()
            #expect(outcome.exitStatus == 0, "\(outcome)")

            let records = try await SQLiteRecordStore(readingPath: database.path).records(matching: RecordQuery())
            let byKey = Dictionary(records.map { ($0.deviceKey, $0) }) { first, _ in first }
            #expect(records.count == 3, "\(records)")
            for (index, key) in ["PROV_007301", "PROV_007302"].enumerated() {
                let record = try #require(byKey[key], "\(records)")
                #expect(record.succeeded, "\(record)")
                #expect(record.provisioningProtocol == "protocomm")
                #expect(record.security == "sec\(index + 1)\(index == 1 ? " patch 1" : "")", "\(record)")
                #expect(record.address == Self.protocommAddresses[index])
                #expect(record.firmware.protocomm == "netprov-v1.2")
            }
            let bluFi = try #require(byKey[Self.bluFiAddress], "\(records)")
            #expect(bluFi.succeeded && bluFi.provisioningProtocol == "blufi", "\(bluFi)")

            let recorded = outcome.events.filter { $0["event"] as? String == "attempt-recorded" }
            #expect(Set(recorded.compactMap { $0["protocol"] as? String }) == ["protocomm", "blufi"], "\(recorded)")
            for (index, address) in Self.protocommAddresses.enumerated() {
                let record = try await BLEProtocommEndToEndTests.record(h, address)
                let configured = BLEProtocommEndToEndTests.events(record, "set_config")
                #expect(configured.first?["passphrase"]?.string == Self.wifiPassword, "unit \(index): \(record)")
            }
            for secret in Self.pops + [Self.wifiPassword] {
                #expect(!outcome.everything.contains(secret), "a secret was printed")
                let bytes = try Data(contentsOf: database)
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "the database holds a secret")
            }
        }
    }
}
