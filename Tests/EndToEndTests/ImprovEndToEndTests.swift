import Foundation
import TestSupport
import Testing

/// `ztprov ble` and `ztprov scan` as built binaries against the BlueZ mock's Improv device model
/// (Tests/Harness/ztharness/improv_device.py), alone and beside a BluFi device.
///
/// Every case checks the cleanup contract in the mock's call log (notifications stopped, device
/// disconnected, once a connection happened) and that the password reaches neither stdout nor stderr.
@Suite(.serialized, .requiresHarnessHost)
struct ImprovEndToEndTests {
    static let improvAddress = "24:0A:C4:AA:BB:01"
    static let bluFiAddress = "24:0A:C4:12:34:56"
    static let password = "correct horse"

    /// One Improv device with these model settings (and whatever else `device` adds).
    static func scenario(improv: [String: JSONValue] = [:], device: [String: JSONValue] = [:]) -> JSONValue {
        var entry = device
        entry["address"] = .string(improvAddress)
        entry["improv"] = .object(improv)
        return ["bluez": ["devices": [.object(entry)]]]
    }

    /// An Improv device and a BluFi device side by side.
    static let sideBySide: JSONValue = [
        "bluez": [
            "devices": [
                ["address": .string(improvAddress), "improv": [:], "rssi": -40],
                ["address": .string(bluFiAddress), "blufi": ["version": [1, 4]]],
            ]
        ]
    ]

    /// `ztprov ble --ssid HomeNet --json --verbose` plus `extra`, with the password in the environment.
    static func ble(_ h: HarnessSession, _ extra: [String] = [], password: String = password) throws -> ProcessLaunch {
        try h.ztprov(
            ["ble", "--ssid", "HomeNet", "--json", "--verbose"] + BLEEndToEndTests.choosingFirst(unlessIn: extra)
                + extra,
            environment: ["ZTPROV_WIFI_PASSWORD": password])
    }

    /// The BLE suite's cleanup contract, and this suite's password nowhere in the output.
    static func expectCleanAndSilent(
        _ outcome: ProcessOutcome, _ h: HarnessSession, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(!outcome.everything.contains(password), sourceLocation: sourceLocation)
        try await BLEEndToEndTests.expectCleanAndSilent(outcome, h, sourceLocation: sourceLocation)
    }

    static func device(_ h: HarnessSession) async throws -> JSONValue {
        try #require(try await h.received(source: .improv)[0])
    }

    static func events(_ outcome: ProcessOutcome, named name: String) -> [[String: Any]] {
        outcome.events.filter { $0["event"] as? String == name }
    }

    @Test func provisionsAndReportsTheRedirectURL() async throws {
        try await withHarness(scenario: Self.scenario()) { h in
            let outcome = try await Self.ble(h).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            #expect(outcome.result?["protocol"] as? String == "improv")
            #expect(outcome.result?["redirect_url"] as? String == "http://improv-device.local/")
            #expect(outcome.result?["ssid"] as? String == "HomeNet")
            #expect(outcome.result?["improv_state"] as? String == "authorized")
            #expect(outcome.result?["authorization_waited"] as? Bool == false)
            let info = try #require(outcome.result?["device_info"] as? [String: Any], "\(outcome)")
            #expect(info["firmware"] as? String == "ESPHome" && info["hardware"] as? String == "esp32-c3")
            #expect(Self.events(outcome, named: "protocol").first?["detected_from"] as? String == "advertisement")
            #expect(outcome.standardError.contains("continue at http://improv-device.local/"), "\(outcome)")
            #expect(
                outcome.standardError.hasSuffix("next: Continue the device's setup at http://improv-device.local/\n"),
                "\(outcome.standardError)")
            let device = try await Self.device(h)
            #expect(device["join_attempts"]?[0]?["password"]?.string == Self.password)
            #expect(device["state"] == 4)
            // 25 bytes of Wi-Fi settings arrive as a 20-byte and a 5-byte write.
            #expect(device["invalid_frames"] == 0)
            #expect(device["ble"]?["writes"] == 3, "device info (1) + Wi-Fi settings (2): \(device)")
            try await Self.expectCleanAndSilent(outcome, h)
        }
    }

    @Test func anUnreachableNetworkExitsSevenWithImprovsReason() async throws {
        try await withHarness(scenario: Self.scenario()) { h in
            let outcome = try await Self.ble(h, password: "wrong password").run()
            expectFailure(outcome, code: "improv.wifi-unable-to-connect", status: 7)
            #expect(outcome.standardError.contains("could not join \"HomeNet\""), "\(outcome)")
            #expect(!outcome.everything.contains("wrong password"))
            try await Self.expectCleanAndSilent(outcome, h)
        }
    }

    @Test func waitsForTheButtonAndGoesOn() async throws {
        let improv: [String: JSONValue] = ["requires_authorization": true, "authorize_after_ms": 1500]
        try await withHarness(scenario: Self.scenario(improv: improv)) { h in
            let outcome = try await Self.ble(h, ["--hostname", "porch-light"]).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            #expect(outcome.standardError.contains("action: The device needs authorization: press its button"))
            #expect(outcome.result?["authorization_waited"] as? Bool == true)
            #expect(outcome.result?["improv_state"] as? String == "authorization-required")
            #expect(outcome.result?["hostname"] as? String == "porch-light")
            let names = outcome.events.compactMap { $0["event"] as? String }
            let required = try #require(names.firstIndex(of: "authorization-required"), "\(names)")
            let authorized = try #require(names.firstIndex(of: "authorized"), "\(names)")
            #expect(required < authorized && authorized < (names.firstIndex(of: "hostname") ?? 0), "\(names)")
            #expect(try await Self.device(h)["authorized_by_button"] == 1)
            try await Self.expectCleanAndSilent(outcome, h)
        }
    }

    @Test func nobodyPressingTheButtonExitsNine() async throws {
        try await withHarness(scenario: Self.scenario(improv: ["requires_authorization": true])) { h in
            let outcome = try await Self.ble(h, ["--authorization-timeout", "1"]).run()
            expectFailure(outcome, code: "improv.authorization-timeout", status: 9)
            #expect(outcome.standardError.contains("Nobody authorized the device in time"), "\(outcome)")
            let device = try await Self.device(h)
            #expect(device["join_attempts"]?.array?.isEmpty == true, "nothing was sent unauthorized: \(device)")
            try await Self.expectCleanAndSilent(outcome, h)
        }
    }

    @Test func ctrlCDuringTheButtonWaitExits130AfterDisconnecting() async throws {
        try await withHarness(scenario: Self.scenario(improv: ["requires_authorization": true])) { h in
            let outcome = try await Self.ble(h).run(interrupting: .whenStandardErrorContains("action: "))
            expectFailure(outcome, code: "interrupted", status: 130)
            let methods = try await BLEEndToEndTests.bluezMethods(h)
            #expect(methods.contains("Connect") && methods.last == "Disconnect", "\(methods)")
            try await Self.expectCleanAndSilent(outcome, h)
        }
    }

    /// BluFi-only settings are refused for a device auto detection found to speak Improv, before connecting.
    @Test(arguments: [
        (["--bssid", "24:0A:C4:00:00:01"], "--bssid"),
        (["--area-id", "42", "--access-token-env", "ZTPROV_WIFI_PASSWORD"], "--area-id"),
    ])
    func bluFiOnlyOptionsAreRefusedForAnImprovDevice(extra: [String], option: String) async throws {
        try await withHarness(scenario: Self.scenario()) { h in
            let outcome = try await Self.ble(h, extra).run()
            expectFailure(outcome, code: "usage.invalid-option", status: 2)
            #expect(outcome.standardError.contains("\(option) does not apply to an Improv device"), "\(outcome)")
            #expect(try await !BLEEndToEndTests.bluezMethods(h).contains("Connect"))
            try await Self.expectCleanAndSilent(outcome, h)
        }
    }

    @Test func identifiesNamesAndListsNetworks() async throws {
        try await withHarness(scenario: Self.scenario()) { h in
            let outcome = try await Self.ble(
                h, ["--identify", "--hostname", "kitchen-2", "--device-name", "Küche Plug", "--list-networks"]
            ).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            #expect(outcome.result?["identified"] as? Bool == true)
            #expect(outcome.result?["hostname"] as? String == "kitchen-2")
            #expect(outcome.result?["device_name"] as? String == "Küche Plug")
            let networks = try #require(outcome.result?["networks"] as? [[String: Any]], "\(outcome)")
            #expect(networks.map { $0["ssid"] as? String } == ["HomeNet", "Guest"])
            #expect(networks.first?["rssi"] as? Int == -48)
            #expect(networks.last?["authentication"] as? String == "NO")
            let device = try await Self.device(h)
            #expect(device["identify"] == 1)
            // identify, device info, scan, hostname, device name, Wi-Fi settings: in that order.
            #expect(device["commands"] == [2, 3, 4, 5, 6, 1], "\(device)")
            try await Self.expectCleanAndSilent(outcome, h)
        }
    }

    /// A capability the device does not advertise is refused before any write; a device name the
    /// device answers as an unknown command is refused by the device.
    @Test(arguments: [
        (["capabilities": []] as [String: JSONValue], "--hostname", "kitchen-2", "hostname"),
        (["supports_device_name": false], "--device-name", "Porch", "device name"),
    ])
    func aCommandTheDeviceLacksExitsTwo(improv: [String: JSONValue], option: String, value: String, command: String)
        async throws
    {
        try await withHarness(scenario: Self.scenario(improv: improv)) { h in
            let outcome = try await Self.ble(h, [option, value]).run()
            expectFailure(outcome, code: "improv.not-supported", status: 2)
            #expect(outcome.standardError.contains("does not support \(command)"), "\(outcome)")
            #expect(try await Self.device(h)["join_attempts"]?.array?.isEmpty == true)
            try await Self.expectCleanAndSilent(outcome, h)
        }
    }

    @Test func anAlreadyProvisionedDeviceExitsFour() async throws {
        try await withHarness(scenario: Self.scenario(improv: ["provisioned": true])) { h in
            let outcome = try await Self.ble(h).run()
            expectFailure(outcome, code: "improv.already-provisioned", status: 4)
            #expect(try await Self.device(h)["commands"]?.array?.isEmpty == true)
            try await Self.expectCleanAndSilent(outcome, h)
        }
    }

    /// Write 1 is the device info request; write 3 is the second piece of the Wi-Fi settings.
    @Test(arguments: [1, 3])
    func aLinkLostMidProvisioningExitsFive(write: Int) async throws {
        let faults: JSONValue = ["link_loss_at_frame": .number(Double(write))]
        try await withHarness(scenario: Self.scenario(device: ["faults": faults])) { h in
            let outcome = try await Self.ble(h).run()
            expectFailure(outcome, code: "ble.link-lost", status: 5)
            let events = try await Self.device(h)["ble"]?["events"]?.array ?? []
            #expect(events.first { $0["event"] == "disconnected" }?["detail"] == "link-loss", "\(events)")
            try await Self.expectCleanAndSilent(outcome, h)
        }
    }

    @Test func autoPicksEachDevicesProtocolSideBySide() async throws {
        try await withHarness(scenario: Self.sideBySide) { h in
            let improv = try await Self.ble(h, ["--device", Self.improvAddress]).run()
            #expect(improv.exitStatus == 0, "\(improv)")
            #expect(improv.result?["protocol"] as? String == "improv")
            try await Self.expectCleanAndSilent(improv, h)
            let bluFi = try await Self.ble(h, ["--device", Self.bluFiAddress]).run()
            #expect(bluFi.exitStatus == 0, "\(bluFi)")
            #expect(bluFi.result?["protocol"] as? String == "blufi")
            #expect(bluFi.result?["station_state"] as? String == "connected")
            try await Self.expectCleanAndSilent(bluFi, h)
        }
    }

    @Test func blufiAgainstAnImprovDeviceNamesBothProtocols() async throws {
        try await withHarness(scenario: Self.scenario()) { h in
            let outcome = try await Self.ble(h, ["--protocol", "blufi", "--device", Self.improvAddress]).run()
            expectFailure(outcome, code: "ble.services-missing", status: 5)
            #expect(outcome.standardError.contains("advertises Improv, not BluFi"), "\(outcome)")
            #expect(outcome.standardError.contains("--protocol improv"), "\(outcome)")
            #expect(try await !BLEEndToEndTests.bluezMethods(h).contains("Connect"))
            try await Self.expectCleanAndSilent(outcome, h)
        }
    }

    /// Without a service in the advertisement, auto detection connects once to read the GATT database.
    @Test func autoFallsBackToTheGATTDatabase() async throws {
        let device: [String: JSONValue] = ["uuids": [], "name": "plug"]
        try await withHarness(scenario: Self.scenario(improv: ["advertises_service_data": false], device: device)) {
            h in
            let outcome = try await Self.ble(h, ["--device", Self.improvAddress]).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            #expect(Self.events(outcome, named: "protocol").first?["detected_from"] as? String == "gatt")
            #expect(outcome.result?["protocol"] as? String == "improv")
            #expect(outcome.result?["device_info"] == nil, "no advertised capabilities, so no device info asked")
            let methods = try await BLEEndToEndTests.bluezMethods(h)
            #expect(methods.filter { $0 == "Connect" }.count == 2, "\(methods)")
            try await Self.expectCleanAndSilent(outcome, h)
        }
    }

    @Test func scanListsProtocolAndState() async throws {
        let scenario: JSONValue = [
            "bluez": [
                "devices": [
                    ["address": .string(Self.improvAddress), "improv": ["requires_authorization": true]],
                    ["address": .string(Self.bluFiAddress)],
                ]
            ]
        ]
        try await withHarness(scenario: scenario) { h in
            let outcome = try await h.ztprov(["scan", "--json", "--duration", "1"]).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            let devices = Self.events(outcome, named: "device")
            let improv = try #require(devices.first { $0["address"] as? String == Self.improvAddress }, "\(outcome)")
            #expect(improv["protocol"] as? String == "improv")
            #expect(improv["state"] as? String == "authorization-required")
            #expect(improv["capabilities"] as? [String] == ["identify", "device-info", "scan", "hostname"])
            let bluFi = try #require(devices.first { $0["address"] as? String == Self.bluFiAddress }, "\(outcome)")
            #expect(bluFi["protocol"] as? String == "blufi")
            #expect(bluFi["state"] is NSNull)

            let human = try await h.ztprov(["scan", "--duration", "1"]).run()
            #expect(human.exitStatus == 0, "\(human)")
            let lines = human.standardOutput.split(separator: "\n")
            #expect(lines.first?.contains("PROTOCOL  STATE") == true, "\(human.standardOutput)")
            #expect(lines.contains { $0.contains("improv") && $0.contains("authorization-required") })
        }
    }
}
