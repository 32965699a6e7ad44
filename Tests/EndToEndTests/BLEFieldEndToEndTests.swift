import Foundation
import Records
import TestSupport
import Testing

/// What installers and factory lines met in the field: firmware that sends its device ID late or
/// never, and firmware on BluFi 1.4 that kept the V1 security callbacks. Part of the serialized BLE
/// suite, so it adds no harness running in parallel with the others.
extension BLEEndToEndTests {
    /// How the emulated firmware sends its ID after joining, and what the run must report.
    enum IDVariant: String, CaseIterable, Sendable {
        case sendsAtOnce, sendsLate, neverSends

        var blufi: JSONValue {
            switch self {
            case .sendsAtOnce: [:]
            case .sendsLate: ["device_id_delay_ms": 400]
            case .neverSends: ["send_device_id": false]
            }
        }

        var expectedID: String? { self == .neverSends ? nil : BLEEndToEndTests.deviceID }
    }

    @Test(arguments: IDVariant.allCases)
    func theDeviceIDIsCapturedWithoutAnyHandOffOption(variant: IDVariant) async throws {
        try await withHarness(scenario: BLEEndToEndTests.scenario(blufi: variant.blufi)) { h in
            let outcome = try await BLEEndToEndTests.ble(h).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            let result = try #require(outcome.result, "\(outcome)")
            #expect(result.keys.contains("device_id"))
            #expect(result["device_id"] as? String == variant.expectedID, "\(result)")
            let idEvents = outcome.events.filter { $0["event"] as? String == "device-id" }
            #expect(idEvents.count == 1, "\(outcome.standardOutput)")
            #expect(idEvents.first?["device_id"] as? String == variant.expectedID)
            if variant == .neverSends {
                #expect(outcome.standardError.contains("Device sent no device ID after joining"), "\(outcome)")
            } else {
                #expect(outcome.standardError.contains("Device ID \(BLEEndToEndTests.deviceID)"), "\(outcome)")
            }
            try await BLEEndToEndTests.expectCleanAndSilent(outcome, h)
        }
    }

    @Test func aDeviceThatNeverSendsItsIDFailsOnlyWhenTheHandOffNeedsIt() async throws {
        let scenario = BLEEndToEndTests.scenario(blufi: IDVariant.neverSends.blufi)
        try await withHarness(scenario: scenario) { h in
            let outcome = try await BLEEndToEndTests.ble(
                h,
                [
                    "--area-id", "42", "--access-token-env", "ZTPROV_E2E_TOKEN",
                    "--lan-interface", h.topology.hostInterface, "--timeout", "4",
                ]
            ).run()
            #expect(outcome.exitStatus != 0, "\(outcome)")
            #expect(outcome.standardError.contains("did not send its device ID"), "\(outcome.standardError)")
            try await BLEEndToEndTests.expectCleanAndSilent(outcome, h)
        }
    }

    /// BluFi 1.4 firmware with V1 callbacks: the device rejects V2's parameters with DH_PARAM_ERROR.
    static let v1CallbacksOn14 = BLEEndToEndTests.scenario(blufi: ["version": [1, 4], "security": "v1"])

    @Test func automaticSecurityFallsBackToV1OnANewConnection() async throws {
        try await withHarness(scenario: Self.v1CallbacksOn14) { h in
            let outcome = try await BLEEndToEndTests.ble(h, ["--security", "auto"]).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            #expect(outcome.result?["security"] as? String == "v1", "\(outcome)")
            #expect(outcome.result?["rejected_security"] as? String == "v2", "\(outcome)")
            #expect(outcome.result?["device_id"] as? String == BLEEndToEndTests.deviceID)
            let warning = try #require(outcome.events.first { $0["event"] as? String == "warning" }, "\(outcome)")
            #expect(warning["code"] as? String == "blufi.security-fallback")
            #expect(warning["rejected_security"] as? String == "v2" && warning["security"] as? String == "v1")
            #expect((warning["message"] as? String)?.contains("DH_PARAM_ERROR") == true, "\(warning)")
            #expect(outcome.standardError.contains("warning: "), "\(outcome.standardError)")
            #expect(outcome.standardError.contains("Falling back to V1"), "\(outcome.standardError)")
            let methods = try await BLEEndToEndTests.bluezMethods(h)
            #expect(methods.filter { $0 == "Connect" }.count == 2, "\(methods)")
            let blufi = try await h.received(source: .blufi)
            #expect(blufi[0]?["security"] == "v1", "\(blufi)")
            try await BLEEndToEndTests.expectCleanAndSilent(outcome, h)
        }
    }

    @Test func anExplicitV2NeverFallsBack() async throws {
        try await withHarness(scenario: Self.v1CallbacksOn14) { h in
            let outcome = try await BLEEndToEndTests.ble(h, ["--security", "v2"]).run()
            expectFailure(outcome, code: "blufi.negotiation-failed", status: 6)
            #expect(outcome.standardError.contains("DH_PARAM_ERROR"), "\(outcome.standardError)")
            #expect(!outcome.events.contains { $0["event"] as? String == "warning" })
            let methods = try await BLEEndToEndTests.bluezMethods(h)
            #expect(methods.filter { $0 == "Connect" }.count == 1, "\(methods)")
            try await BLEEndToEndTests.expectCleanAndSilent(outcome, h)
        }
    }

    @Test func listNetworksPrintsTheDevicesScanBeforeSendingTheSettings() async throws {
        try await withHarness(scenario: BLEEndToEndTests.scenario()) { h in
            let outcome = try await BLEEndToEndTests.ble(h, ["--list-networks"]).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            let names = outcome.events.compactMap { $0["event"] as? String }
            let list = try #require(names.firstIndex(of: "wifi-list"), "\(names)")
            let join = try #require(names.firstIndex(of: "join-requested"), "\(names)")
            #expect(list < join)
            let networks = try #require(outcome.events[list]["networks"] as? [[String: Any]])
            #expect(networks.map { $0["ssid"] as? String } == ["HomeNet", "Neighbour-5G"])
            #expect(networks.map { $0["rssi"] as? Int } == [-45, -78])
            #expect(outcome.result?["station_state"] as? String == "connected")
            try await BLEEndToEndTests.expectCleanAndSilent(outcome, h)

            let table = try h.ztprov(
                ["ble", "--ssid", "HomeNet", "--list-networks"],
                environment: ["ZTPROV_WIFI_PASSWORD": BLEEndToEndTests.wifiPassword])
            let human = try await table.run()
            #expect(human.exitStatus == 0, "\(human)")
            #expect(
                human.standardOutput.hasPrefix("HomeNet\t-45 dBm\nNeighbour-5G\t-78 dBm\n"), "\(human.standardOutput)")
            #expect(human.standardError.contains("Device found 2 networks"), "\(human.standardError)")
        }
    }

    @Test func batchRecordsTheSchemeThatWorkedAfterFallingBack() async throws {
        let directory = try BatchEndToEndTests.workspace(units: 1)
        defer { try? FileManager.default.removeItem(at: directory) }
        var scenario = BatchEndToEndTests.scenario(units: 1)
        if case .object(var members) = scenario, case .object(var bluez) = members["bluez"]!,
            case .array(var devices) = bluez["devices"]!, case .object(var device) = devices[0],
            case .object(var blufi) = device["blufi"]!
        {
            blufi["version"] = [1, 4]
            blufi["security"] = "v1"
            device["blufi"] = .object(blufi)
            devices[0] = .object(device)
            bluez["devices"] = .array(devices)
            members["bluez"] = .object(bluez)
            scenario = .object(members)
        }
        try await withHarness(scenario: scenario) { h in
            let outcome = try await BatchEndToEndTests.batch(h, directory, ["--adapters", "hci0"]).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            #expect(outcome.standardError.contains("Falling back to V1"), "\(outcome.standardError)")
            let records = try await BatchEndToEndTests.records(directory)
            #expect(records.count == 1)
            #expect(records.first?.code == "ok" && records.first?.security == "V1", "\(records)")
            #expect(records.first?.deviceID == BatchEndToEndTests.deviceID(1))
        }
    }
}
