import Foundation
import Glibc
import Records
import SQLiteRecordStore
import TestSupport
import Testing

/// `ztprov batch` as the factory line runs it: four adapters of the BlueZ mock, twelve units each heard
/// by every adapter, records in an SQLite file the test reads back.
@Suite(.serialized, .requiresHarnessHost)
struct BatchEndToEndTests {
    static let wifiPassword = "pw-Factory-9431"
    static let adapters = (0..<4).map { "hci\($0)" }

    /// Twelve units on four adapters; `wrongPassword` units know another password, `linkLoss` drops its
    /// first link mid-negotiation, `slow` units take 400 ms over each write; `adapter` adds settings to every
    /// adapter.
    static func scenario(
        units: Int = 12, wrongPassword: Set<Int> = [], linkLoss: Set<Int> = [], slow: Set<Int> = [],
        adapter: [String: JSONValue] = [:]
    ) -> JSONValue {
        let devices: [JSONValue] = (1...units).map { index in
            let password = wrongPassword.contains(index) ? "another-password" : wifiPassword
            return [
                "adapters": .array(adapters.map(JSONValue.string)), "address": .string(address(index)),
                "name": .string(name(index)), "write_latency_ms": slow.contains(index) ? 400 : 2,
                "blufi": [
                    "target_ssid": "Factory", "target_password": .string(password), "join_delay_ms": 200,
                    "device_id": .string(deviceID(index)),
                ],
                "faults": linkLoss.contains(index) ? ["link_loss_at_frame": 4] : [:],
            ]
        }
        let adapterList: [JSONValue] = adapters.enumerated().map { index, name in
            let fields: [String: JSONValue] = [
                "name": .string(name), "address": .string("00:AA:BB:CC:DD:0\(index)"), "powered": true,
            ]
            return .object(fields.merging(adapter) { $1 })
        }
        return ["bluez": ["adapters": .array(adapterList), "devices": .array(devices)]]
    }

    static func address(_ index: Int) -> String { String(format: "24:0A:C4:00:00:%02X", index) }
    static func deviceID(_ index: Int) -> String { String(format: "240ac40000%02x", index) }
    static func name(_ index: Int) -> String { String(format: "MH-%04d", index) }

    /// A scratch directory with the units file (a header and one row per unit).
    static func workspace(units: Int) throws -> URL {
        let directory = try TemporaryDirectory("batch").url
        let rows = (1...units).map { "\(address($0)),\(name($0))" }
        try (["address,name"] + rows).joined(separator: "\n").write(
            to: directory.appendingPathComponent("units.csv"), atomically: true, encoding: .utf8)
        return directory
    }

    static func batch(_ h: HarnessSession, _ directory: URL, _ extra: [String] = []) throws -> ProcessLaunch {
        try h.ztprov(
            [
                "batch", "--devices", directory.appendingPathComponent("units.csv").path, "--ssid", "Factory",
                "--db", directory.appendingPathComponent("records.sqlite").path, "--station", "line-1-st-3",
                "--json", "--verbose",
            ] + extra, environment: ["ZTPROV_WIFI_PASSWORD": wifiPassword], deadline: .seconds(120))
    }

    static func records(_ directory: URL) async throws -> [ProvisioningRecord] {
        let store = try await SQLiteRecordStore(path: directory.appendingPathComponent("records.sqlite").path)
        return try await store.records(matching: RecordQuery())
    }

    /// No secret in the output or in any byte of the database files (main file and WAL).
    static func expectNoSecret(_ outcome: ProcessOutcome, _ directory: URL) throws {
        #expect(!outcome.everything.contains(wifiPassword))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasPrefix("records")
        }
        #expect(files.contains("records.sqlite"), "no database to search: \(files)")
        for file in files {
            let bytes = try Data(contentsOf: directory.appendingPathComponent(file))
            #expect(bytes.range(of: Data(wifiPassword.utf8)) == nil, "\(file) holds the password")
        }
    }

    /// Every Connect the mock accepted was followed by a Disconnect.
    static func expectNoLinkLeftUp(_ h: HarnessSession) async throws {
        let calls = try await h.calls(mock: .bluez)["calls"]?.array ?? []
        let connects = calls.filter { $0["method"] == "Connect" && $0["error"] == nil }.count
        let disconnects = calls.filter { $0["method"] == "Disconnect" }.count
        #expect(connects > 0 && disconnects >= connects, "\(connects) connects, \(disconnects) disconnects")
    }

    @Test func twelveUnitsOnFourAdaptersEndInExactlyOneFinalRecordEach() async throws {
        let directory = try Self.workspace(units: 12)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withHarness(scenario: Self.scenario(wrongPassword: [4, 9], linkLoss: [7])) { h in
            let outcome = try await Self.batch(h, directory).run()
            #expect(outcome.exitStatus == 10, "\(outcome)")
            #expect(outcome.result?["code"] as? String == "batch.incomplete")
            let summary = try #require(outcome.events.last { $0["event"] as? String == "summary" })
            #expect(summary["provisioned"] as? Int == 10)
            #expect(summary["failed"] as? Int == 2)

            let records = try await Self.records(directory)
            for index in 1...12 {
                let attempts = records.filter { $0.deviceKey == Self.address(index) }
                let finals = attempts.filter(\.isFinal)
                #expect(finals.count == 1, "unit \(index): \(attempts.map(\.code))")
                let expected = [4, 9].contains(index) ? "blufi.wifi-wrong-password" : "ok"
                #expect(finals.first?.code == expected, "unit \(index)")
                let succeeded = attempts.filter(\.succeeded)
                #expect(succeeded.allSatisfy { $0.deviceID == Self.deviceID(index) }, "unit \(index): no device ID")
            }
            let lossy = records.filter { $0.deviceKey == Self.address(7) }
            #expect(lossy.map(\.code) == ["ble.link-lost", "ok"])
            #expect(lossy.map(\.isFinal) == [false, true])
            #expect(Set(records.map(\.adapter)).count > 1, "the lanes did not share the work")
            #expect(records.allSatisfy { $0.station == "line-1-st-3" && $0.path == .ble })
            let success = try #require(records.first { $0.succeeded })
            #expect(success.security == "V1" && success.firmware.bluFi == "1.3")
            #expect(success.steps.map(\.name).starts(with: ["scan", "connect", "negotiate", "configure", "join"]))
            try Self.expectNoSecret(outcome, directory)
            try await Self.expectNoLinkLeftUp(h)
        }
    }

    @Test func aKilledBatchResumesWithoutRedoingFinishedUnits() async throws {
        let directory = try Self.workspace(units: 8)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withHarness(scenario: Self.scenario(units: 8)) { h in
            let first = try Self.batch(h, directory).start()
            // Killed from the thread that reads its output: the other seven units take only ~0.6 s more.
            first.send(signal: SIGKILL, whenStandardErrorContains: ": provisioned")
            let killed = await first.waitForExit()
            #expect(killed.termination == .signalled(SIGKILL), "\(killed)")
            let finishedBefore = Set(try await Self.records(directory).filter(\.succeeded).map(\.deviceKey))
            #expect(!finishedBefore.isEmpty)

            let resumed = try await Self.batch(h, directory).run()
            #expect(resumed.exitStatus == 0, "\(resumed)")
            let records = try await Self.records(directory)
            let secondBatch = Set(records.map(\.batchID)).subtracting(
                records.filter { finishedBefore.contains($0.deviceKey) }.map(\.batchID))
            for record in records where secondBatch.contains(record.batchID) {
                #expect(!finishedBefore.contains(record.deviceKey), "\(record.deviceKey) was provisioned again")
            }
            for index in 1...8 {
                #expect(records.filter { $0.deviceKey == Self.address(index) && $0.succeeded }.count == 1)
            }
            let skipped = resumed.events.filter { $0["event"] as? String == "skipped" }.count
            #expect(skipped == finishedBefore.count)
            try Self.expectNoSecret(resumed, directory)
        }
    }

    @Test func ctrlCRecordsTheAttemptsInFlightAndExits130() async throws {
        let directory = try Self.workspace(units: 12)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withHarness(scenario: Self.scenario()) { h in
            let outcome = try await Self.batch(h, directory).run(
                interrupting: .whenStandardErrorContains(": provisioned"))
            #expect(outcome.exitStatus == 130, "\(outcome)")
            #expect(outcome.standardError.contains("error[interrupted]"))
            let records = try await Self.records(directory)
            #expect(records.contains { $0.succeeded })
            let unfinished = records.filter { !$0.succeeded }
            #expect(unfinished.allSatisfy { $0.code == "interrupted" && !$0.isFinal })
            #expect(Set(records.map(\.deviceKey)).count < 12, "Ctrl-C should leave units untouched")
            try await Self.expectNoLinkLeftUp(h)
            let discovery = try await BatchDiscoveryEndToEndTests.discoveryCalls(h)
            #expect(discovery.stops == discovery.starts && discovery.starts.count == 4, "\(discovery)")
        }
    }

    @Test func barcodeLinesFromStdinWithAStationProfile() async throws {
        let directory = try Self.workspace(units: 3)
        defer { try? FileManager.default.removeItem(at: directory) }
        let profile = directory.appendingPathComponent("station.json")
        try #"{"ssid": "Factory", "password-env": "LINE_WIFI", "adapters": ["hci1", "hci2"], "retries": 1}"#.write(
            to: profile, atomically: true, encoding: .utf8)
        try await withHarness(scenario: Self.scenario(units: 3)) { h in
            var launch = try h.ztprov(
                [
                    "batch", "--config", profile.path, "--db", directory.appendingPathComponent("records.sqlite").path,
                    "--json",
                ], environment: ["LINE_WIFI": Self.wifiPassword], deadline: .seconds(120))
            launch.standardInput = Data(
                "\(Self.name(1))\nMH-0002,pop,extra\n\(Self.address(2))\n\(Self.name(3))\n".utf8)
            let outcome = try await launch.run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            #expect(outcome.standardError.contains("Batch input line 2 cannot be used"), "\(outcome.standardError)")
            let records = try await Self.records(directory)
            #expect(Set(records.map(\.deviceKey)) == [Self.name(1), Self.address(2), Self.name(3)])
            #expect(Set(records.map(\.adapter)).isSubset(of: ["hci1", "hci2"]))
            try Self.expectNoSecret(outcome, directory)
        }
    }

    @Test func aBadInputFileStopsBeforeAnyUnitWithTwo() async throws {
        let directory = try Self.workspace(units: 2)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "address,name\n24:0A:C4:00:00:01,MH-0001\n24:0A:C4,MH-0002\n".write(
            to: directory.appendingPathComponent("units.csv"), atomically: true, encoding: .utf8)
        try await withHarness(scenario: Self.scenario(units: 2)) { h in
            let outcome = try await Self.batch(h, directory).run()
            #expect(outcome.exitStatus == 2, "\(outcome)")
            #expect(outcome.standardError.contains("error[batch.bad-input]: Batch input line 3 cannot be used"))
            #expect(outcome.standardError.contains("hint: "))
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("records.sqlite").path))
            #expect(try await !BLEEndToEndTests.bluezMethods(h).contains("Connect"))
        }
    }

    @Test func handsAUnitToTheCloudAfterProvisioningIt() async throws {
        let directory = try Self.workspace(units: 1)
        defer { try? FileManager.default.removeItem(at: directory) }
        var scenario = Self.scenario(units: 1)
        if case .object(var members) = scenario {
            members["device_host"] = ["zhiting": ["device_id": .string(Self.deviceID(1))]]
            scenario = .object(members)
        }
        try await withHarness(scenario: scenario) { h in
            var launch = try Self.batch(
                h, directory,
                [
                    "--area-id", "42", "--access-token-env", "E2E_TOKEN", "--lan-interface", h.topology.hostInterface,
                ])
            launch.environment["E2E_TOKEN"] = "AT-batch-e2e-77aa"
            let outcome = try await launch.run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            let record = try #require(try await Self.records(directory).first)
            #expect(record.succeeded && record.deviceID == Self.deviceID(1))
            #expect(record.steps.map(\.name).last == "handoff", "\(record.steps)")
            #expect(record.firmware.device != nil, "get_prop.info's software version is recorded")
            let zhiting = "\(try await h.received(source: .zhiting))"
            #expect(zhiting.contains("set_prop.server") && zhiting.contains("AT-batch-e2e-77aa"), "\(zhiting)")
            #expect(!outcome.everything.contains("AT-batch-e2e-77aa"))
            try Self.expectNoSecret(outcome, directory)
        }
    }
}
