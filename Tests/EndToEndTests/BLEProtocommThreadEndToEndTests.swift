import Foundation
import TestSupport
import Testing

/// `ztprov ble --thread-dataset-file` as the built binary against the BlueZ mock's ESP network_provisioning
/// device built for Thread (`protocomm_thread.py`, a Python model written from the component, not from our
/// Swift cores): the dataset, the attach, the Thread scan, the device's failure reasons, and the refusals
/// when the device provisions the other network. No run may print the dataset or its network key.
@Suite(.serialized, .requiresHarnessHost)
struct BLEProtocommThreadEndToEndTests {
    static let networkKey = "5f3a9d9c0bf5efa1cf0e8a4bbfc0e8d7"
    static let pskc = "71d7dd1ba2bd3a1bd7d9e89d94f47f35"

    /// An active dataset for the harness's default network (OpenThread-zt, PAN ID 0x1234, channel 15,
    /// extended PAN ID dead00beef00cafe) or the one with `extendedPANID`; `withKey: false` leaves the
    /// network key out, which the device finds invalid.
    static func dataset(extendedPANID: String = "dead00beef00cafe", withKey: Bool = true) -> String {
        "0e080000000000010000" + "000300000f" + "0208" + extendedPANID + "0708fddead00beef0000"
            + (withKey ? "0510" + networkKey : "") + "030d4f70656e5468726561642d7a74" + "01021234"
            + "0410" + pskc + "0c0402a0f7f8"
    }

    static func device(_ address: String, thread: [String: JSONValue], security: Int = 0) -> JSONValue {
        var protocomm: [String: JSONValue] = [
            "security": .number(Double(security)), "network": "thread", "proto_ver_style": "netprov-v1.2",
        ]
        protocomm.merge(thread) { $1 }
        return BLEProtocommEndToEndTests.device(address, protocomm: protocomm)
    }

    static func ble(_ h: HarnessSession, _ arguments: [String], timeout: Int = 60) throws -> ProcessLaunch {
        try h.ztprov(
            ["ble", "--json", "--verbose", "--timeout", "\(timeout)", "--protocol", "protocomm"] + arguments,
            environment: [
                "ZTPROV_WIFI_PASSWORD": BLEProtocommEndToEndTests.wifiPassword,
                "ZTPROV_E2E_SRP": BLEProtocommEndToEndTests.srpPassword,
            ],
            deadline: .seconds(Int64(timeout) + 30))
    }

    static func datasetFile(_ h: HarnessSession, _ name: String, _ hex: String) throws -> String {
        let file = h.runDirectory.appendingPathComponent(name)
        try Data((hex + "\n").utf8).write(to: file)
        return file.path
    }

    /// Neither the dataset nor its keys in anything printed, and the link released.
    static func expectCleanAndSilent(
        _ outcome: ProcessOutcome, _ h: HarnessSession, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for secret in [networkKey, pskc, dataset(), networkKey.uppercased()] {
            #expect(!outcome.everything.contains(secret), "leaked", sourceLocation: sourceLocation)
        }
        try await BLEProtocommEndToEndTests.expectCleanAndSilent(outcome, h, sourceLocation: sourceLocation)
    }

    static func number(_ value: JSONValue?) -> Double? {
        if case .number(let number)? = value { number } else { nil }
    }

    /// One entry of the device's Thread scan; the first is the network of ``dataset(extendedPANID:withKey:)``.
    static func threadNetwork(_ index: Int) -> JSONValue {
        let name = index == 0 ? "OpenThread-zt" : "Neighbour-\(index)"
        let extendedPANID = index == 0 ? "dead00beef00cafe" : "00112233445566a\(index)"
        var entry: [String: JSONValue] = [:]
        entry["network_name"] = .string(name)
        entry["pan_id"] = .number(Double(0x1234 + index))
        entry["ext_pan_id"] = .string(extendedPANID)
        entry["channel"] = .number(Double(11 + index))
        entry["rssi"] = .number(Double(-40 - index))
        entry["lqi"] = .number(Double(200 - index))
        entry["ext_addr"] = .string("a2b3c4d5e6f7081\(index)")
        return .object(entry)
    }

    static let attaching = "24:0A:C4:00:71:01"
    static let wifiOnly = "24:0A:C4:00:71:02"
    static let listedForPeople = "24:0A:C4:00:71:03"

    /// Security 2, a Thread scan of five networks paged four at a time, the dataset as given, and the
    /// attach the device reports; then the refusals between Wi-Fi and Thread devices, before anything is sent.
    @Test func theDatasetAttachesAfterAThreadScanAndTheOtherNetworkIsRefused() async throws {
        let networks: [JSONValue] = (0..<5).map(Self.threadNetwork)
        let scenario: JSONValue = [
            "bluez": [
                "devices": [
                    Self.device(Self.attaching, thread: ["thread_networks": .array(networks)], security: 2),
                    BLEProtocommEndToEndTests.device(
                        Self.wifiOnly, protocomm: ["security": 0, "proto_ver_style": "netprov-v1.2"]),
                    Self.device(Self.listedForPeople, thread: ["thread_networks": .array(networks)]),
                ]
            ]
        ]
        try await withHarness(scenario: scenario) { h in
            let path = try Self.datasetFile(h, "dataset.hex", Self.dataset())
            let outcome = try await Self.ble(
                h,
                [
                    "--device", Self.attaching, "--thread-dataset-file", path, "--list-networks", "--pop-env",
                    "ZTPROV_E2E_SRP",
                ]
            ).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            let result = try #require(outcome.result, "\(outcome)")
            #expect(result["protocol"] as? String == "protocomm")
            #expect(result["network"] as? String == "thread")
            #expect(result["security"] as? Int == 2)
            #expect(result["network_name"] as? String == "OpenThread-zt")
            #expect(result["pan_id"] as? String == "0x1234")
            #expect(result["ext_pan_id"] as? String == "dead00beef00cafe")
            #expect(result["channel"] as? Int == 15)
            let listed = try #require(outcome.events.first { $0["event"] as? String == "thread-networks" })
            let entries = try #require(listed["networks"] as? [[String: Any]])
            #expect(entries.count == 5)
            #expect(entries.first?["network_name"] as? String == "OpenThread-zt")
            #expect(entries.last?["ext_pan_id"] as? String == "00112233445566a4")
            #expect(entries.last?["lqi"] as? Int == 196 && entries.last?["rssi"] as? Int == -44)
            #expect(outcome.events.contains { $0["event"] as? String == "device-attached" })

            let record = try await BLEProtocommEndToEndTests.record(h, Self.attaching)
            let stored = BLEProtocommEndToEndTests.events(record, "thread_set_config")
            #expect(stored.first?["dataset_hex"]?.string == Self.dataset(), "\(record)")
            let pages = BLEProtocommEndToEndTests.events(record, "thread_scan_result").map { Self.number($0["count"]) }
            #expect(pages == [4, 1], "\(record)")
            #expect(BLEProtocommEndToEndTests.events(record, "thread_get_status").count >= 2)
            try await Self.expectCleanAndSilent(outcome, h)

            let human = try h.ztprov(
                [
                    "ble", "--protocol", "protocomm", "--device", Self.listedForPeople, "--thread-dataset-file", path,
                    "--list-networks",
                ], deadline: .seconds(90))
            let table = try await human.run()
            #expect(table.exitStatus == 0, "\(table)")
            let rows = table.standardOutput.split(separator: "\n").map(String.init)
            #expect(
                rows.first { $0.hasPrefix("NETWORK") }
                    == "NETWORK        EXT PAN ID        PAN ID  CHANNEL  RSSI     LQI")
            #expect(rows.contains("OpenThread-zt  dead00beef00cafe  0x1234  11       -40 dBm  200"), "\(rows)")
            #expect(rows.contains { $0.contains("attached to the Thread network OpenThread-zt") }, "\(table)")
            try await Self.expectCleanAndSilent(table, h)

            let wiFiToThread = try await Self.ble(
                h, ["--device", Self.wifiOnly, "--thread-dataset-file", path]
            ).run()
            expectFailure(wiFiToThread, code: "usage.invalid-option", status: 2)
            #expect(wiFiToThread.standardError.contains("provisions Wi-Fi, not Thread"), "\(wiFiToThread)")
            let wifiRecord = try await BLEProtocommEndToEndTests.record(h, Self.wifiOnly)
            #expect(BLEProtocommEndToEndTests.events(wifiRecord, "thread_set_config").isEmpty)
            try await Self.expectCleanAndSilent(wiFiToThread, h)

            let threadToWiFi = try await Self.ble(
                h, ["--device", Self.attaching, "--ssid", "HomeNet", "--password-env", "ZTPROV_WIFI_PASSWORD"]
            ).run()
            expectFailure(
                threadToWiFi, code: "usage.invalid-option", status: 2,
                secrets: [BLEProtocommEndToEndTests.wifiPassword])
            #expect(threadToWiFi.standardError.contains("provisions Thread, not Wi-Fi"), "\(threadToWiFi)")
            let after = try await BLEProtocommEndToEndTests.record(h, Self.attaching)
            #expect(BLEProtocommEndToEndTests.events(after, "set_config").isEmpty)
            try await Self.expectCleanAndSilent(threadToWiFi, h)
        }
    }

    /// Each failure the device reports, and a device that never finishes attaching, ends in its own code
    /// and exit status with the link released.
    @Test func theDevicesFailureReasonsAreNamedWithTheirExitStatus() async throws {
        let invalid = "24:0A:C4:00:72:01"
        let notFound = "24:0A:C4:00:72:02"
        let detached = "24:0A:C4:00:72:03"
        let slow = "24:0A:C4:00:72:04"
        let scenario: JSONValue = [
            "bluez": [
                "devices": [
                    Self.device(invalid, thread: [:]),
                    Self.device(notFound, thread: [:]),
                    Self.device(detached, thread: ["thread_dataset_outcome": "detached"]),
                    Self.device(slow, thread: ["connecting_polls": 100_000]),
                ]
            ]
        ]
        try await withHarness(scenario: scenario) { h in
            let good = try Self.datasetFile(h, "good.hex", Self.dataset())
            let keyless = try Self.datasetFile(h, "keyless.hex", Self.dataset(withKey: false))
            let elsewhere = try Self.datasetFile(h, "elsewhere.hex", Self.dataset(extendedPANID: "0102030405060708"))
            let cases: [(String, String, String, Int32, String)] = [
                (invalid, keyless, "thread.dataset-rejected", 7, "invalid"),
                (notFound, elsewhere, "thread.network-not-found", 7, "found no Thread network"),
                (detached, good, "thread.attach-failed", 7, "detached"),
            ]
            for (address, path, code, status, words) in cases {
                let outcome = try await Self.ble(h, ["--device", address, "--thread-dataset-file", path]).run()
                expectFailure(outcome, code: code, status: status)
                #expect(outcome.standardError.contains(words), "\(outcome.standardError)")
                try await Self.expectCleanAndSilent(outcome, h)
            }
            let record = try await BLEProtocommEndToEndTests.record(h, detached)
            let states = BLEProtocommEndToEndTests.events(record, "thread_get_status").compactMap {
                Self.number($0["thread_state"])
            }
            #expect(states.filter { $0 == 2 }.count == 3, "three Detached answers before giving up: \(states)")

            let waited = try await Self.ble(h, ["--device", slow, "--thread-dataset-file", good], timeout: 15).run()
            expectFailure(waited, code: "thread.attach-timeout", status: 9)
            #expect(waited.standardError.contains("still attaching"), "\(waited.standardError)")
            try await Self.expectCleanAndSilent(waited, h)
        }
    }
}
