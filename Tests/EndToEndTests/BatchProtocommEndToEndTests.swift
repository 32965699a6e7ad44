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

    static let auditAddresses = (1...6).map { "24:0A:C4:00:74:0\($0)" }

    static func plaintextBluFiDevice(_ address: String) -> JSONValue {
        [
            "address": .string(address), "advertise_delay_ms": 50, "resolve_delay_ms": 50,
            "blufi": [
                "security": "none", "target_ssid": "Factory", "target_password": .string(wifiPassword),
                "device_id": "240ac4007400",
            ],
        ]
    }

    /// The unit line for a protocomm device at `auditAddresses[index]`, named PROV_00740N.
    static func auditUnit(_ index: Int, security: Int, pop: String? = nil) -> String {
        let pop = pop.map { #","pop":"\#($0)""# } ?? ""
        return #"{"ver":"v1","name":"PROV_00740\#(index + 1)","transport":"ble","security":\#(security)\#(pop)}"#
    }

    /// The security audit end to end: without a floor a plaintext BluFi unit and a security 0 unit are
    /// provisioned, recorded with what they ran and flagged by the report; `--min-security encrypted` refuses
    /// fresh such units before they receive anything and takes a security 1 unit without a PoP, which
    /// `ble --min-security authenticated` refuses with exit 6.
    @Test func theFloorRefusesWeakUnitsBeforeAnyCredentialAndTheReportFlagsThem() async throws {
        let addresses = Self.auditAddresses
        let scenario: JSONValue = [
            "bluez": [
                "devices": [
                    Self.plaintextBluFiDevice(addresses[0]), Self.protocommDevice(addresses[1], ["security": 0]),
                    Self.plaintextBluFiDevice(addresses[2]), Self.protocommDevice(addresses[3], ["security": 0]),
                    Self.protocommDevice(addresses[4], ["security": 1, "pop": ""]),
                    Self.protocommDevice(addresses[5], ["security": 1, "pop": ""]),
                ]
            ]
        ]
        try await withHarness(scenario: scenario) { h in
            let directory = h.runDirectory.appendingPathComponent("batch-audit")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let database = directory.appendingPathComponent("records.sqlite").path
            let environment = ["ZTPROV_WIFI_PASSWORD": Self.wifiPassword]
            func batch(_ units: [String], _ name: String, _ extra: [String]) async throws -> ProcessOutcome {
                let file = directory.appendingPathComponent(name)
                try units.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
                return try await h.ztprov(
                    [
                        "batch", "--devices", file.path, "--ssid", "Factory", "--db", database, "--json", "--retries",
                        "0", "--security", "none",
                    ] + extra, environment: environment, deadline: .seconds(150)
                ).run()
            }
            let open = try await batch([addresses[0], Self.auditUnit(1, security: 0)], "open.txt", [])
            #expect(open.exitStatus == 0, "\(open)")
            let floored = try await batch(
                [addresses[2], Self.auditUnit(3, security: 0), Self.auditUnit(4, security: 1)], "floored.txt",
                ["--min-security", "encrypted"])
            #expect(floored.exitStatus == 10, "\(floored)")

            let records = try await SQLiteRecordStore(readingPath: database).records(matching: RecordQuery())
            let byKey = Dictionary(records.map { ($0.deviceKey, $0) }) { first, _ in first }
            let expected: [(String, ProvisioningSecurity.Scheme, String)] = [
                (addresses[0], .bluFiNone, "ok"), ("PROV_007402", .protocomm0, "ok"),
                (addresses[2], .bluFiNone, "security.below-minimum"),
                ("PROV_007404", .protocomm0, "security.below-minimum"), ("PROV_007405", .protocomm1, "ok"),
            ]
            for (key, scheme, code) in expected {
                let record = try #require(byKey[key], "\(records)")
                #expect(record.securedWith == ProvisioningSecurity(scheme), "\(record)")
                #expect(record.code == code && record.isFinal, "\(record)")
            }
            let bluFi = try await h.received(source: .blufi).array ?? []
            let refusedBluFi = bluFi.first { $0["address"]?.string == addresses[2] }
            #expect(refusedBluFi?["sta_password"] == .null && refusedBluFi?["connect_ap"] == 0, "\(bluFi)")
            let refusedProtocomm = try await BLEProtocommEndToEndTests.record(h, addresses[3])
            #expect(BLEProtocommEndToEndTests.events(refusedProtocomm, "set_config").isEmpty, "\(refusedProtocomm)")

            let report = try await h.ztprov(["report", "--format", "html", "--db", database]).run()
            #expect(report.exitStatus == 0, "\(report)")
            #expect(report.standardOutput.contains(#"data-check="plaintext">2<"#), "\(report.standardOutput)")
            #expect(report.standardOutput.contains(#"data-check="without-proof">1<"#))

            let single = try await h.ztprov(
                [
                    "ble", "--protocol", "protocomm", "--device", addresses[5], "--ssid", "Factory", "--min-security",
                    "authenticated", "--json",
                ], environment: environment, deadline: .seconds(60)
            ).run()
            #expect(single.exitStatus == 6, "\(single)")
            #expect(single.everything.contains("security.below-minimum"), "\(single)")
            let refused = try await BLEProtocommEndToEndTests.record(h, addresses[5])
            #expect(BLEProtocommEndToEndTests.events(refused, "set_config").isEmpty, "\(refused)")
            for outcome in [open, floored, single] {
                #expect(!outcome.everything.contains(Self.wifiPassword), "a secret was printed")
            }
        }
    }
}
