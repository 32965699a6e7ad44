import Foundation
import TestSupport
import Testing

/// "Which network" on every BLE protocol, against the BlueZ mock's device models: a join the device cannot
/// make is explained from its own scan; `--check-network` refuses before anything is sent when the scan
/// misses the network, unless `--hidden`; and the names a scan returns are shown as inert text.
@Suite(.serialized, .requiresHarnessHost)
struct BLENetworkCheckEndToEndTests {
    /// The one network every device below hears: never the `HomeNet` the runs ask for.
    static let neighbour = "Neighbour"

    /// One protocol's device model, scripted to hear only some networks and to join only one (or any).
    struct Device: Sendable, CustomTestStringConvertible {
        let name: String
        /// The code of a join the device gave up.
        let failedJoin: String
        /// What picks the device, and the Wi-Fi password its model takes.
        let choice: [String]
        let password: String
        /// A scenario with the device hearing `heard` (name, RSSI) and joining only `joins` (nil: any).
        let scenario: @Sendable (_ heard: [(String, Int)], _ joins: String?) -> JSONValue
        /// The SSIDs the device was sent, in order.
        let received: @Sendable (_ h: HarnessSession) async throws -> [String]

        var testDescription: String { name }

        /// `ztprov ble --ssid HomeNet` for this device, with `--json --verbose` unless `human`.
        func run(_ h: HarnessSession, _ extra: [String], human: Bool = false) throws -> ProcessLaunch {
            try h.ztprov(
                ["ble", "--ssid", "HomeNet"] + (human ? [] : ["--json", "--verbose"]) + choice + extra,
                environment: ["ZTPROV_WIFI_PASSWORD": password])
        }
    }

    static let protocommAddress = "24:0A:C4:00:41:01"

    static let devices = [
        Device(
            name: "BluFi", failedJoin: "blufi.wifi-not-found", choice: ["--pick", "first"],
            password: BLEEndToEndTests.wifiPassword,
            scenario: { heard, joins in
                var blufi: [String: JSONValue] = [
                    "wifi_list": .array(heard.map { ["ssid": .string($0.0), "rssi": .number(Double($0.1))] })
                ]
                if let joins { blufi["target_ssid"] = .string(joins) }
                return BLEEndToEndTests.scenario(blufi: .object(blufi))
            },
            received: { h in
                let attempts = try await h.received(source: .blufi)[0]?["connect_attempts"]?.array ?? []
                return attempts.compactMap { $0["ssid"]?.string }
            }),
        Device(
            name: "protocomm", failedJoin: "protocomm.wifi-not-found", choice: ["--device", protocommAddress],
            password: BLEEndToEndTests.wifiPassword,
            scenario: { heard, joins in
                var protocomm: [String: JSONValue] = [
                    "security": 0,
                    "networks": .array(
                        heard.enumerated().map { index, network in
                            [
                                "ssid": .string(network.0), "rssi": .number(Double(network.1)), "channel": 36,
                                "bssid": .string("aa:bb:cc:00:00:0\(index % 10)"), "auth": 3,
                            ]
                        }),
                ]
                if let joins { protocomm["target_ssid"] = .string(joins) }
                return BLEProtocommEndToEndTests.scenario(
                    BLEProtocommEndToEndTests.device(protocommAddress, protocomm: protocomm))
            },
            received: { h in
                let record = try await BLEProtocommEndToEndTests.record(h, protocommAddress)
                return BLEProtocommEndToEndTests.events(record, "set_config").compactMap { $0["ssid"]?.string }
            }),
        Device(
            name: "Improv", failedJoin: "improv.wifi-unable-to-connect", choice: ["--pick", "first"],
            password: ImprovEndToEndTests.password,
            scenario: { heard, joins in
                ImprovEndToEndTests.scenario(improv: [
                    "target_ssid": .string(joins ?? "HomeNet"),
                    "networks": .array(heard.map { [.string($0.0), .string("\($0.1)"), "WPA2"] }),
                ])
            },
            received: { h in
                let attempts = try await ImprovEndToEndTests.device(h)["join_attempts"]?.array ?? []
                return attempts.compactMap { $0["ssid"]?.string }
            }),
    ]

    /// Whether `text` holds nothing a terminal acts on but line breaks (and a table's tabs).
    static func isInert(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy {
            $0 == "\n" || $0 == "\t"
                || !($0.value < 0x20 || (0x7F...0x9F).contains($0.value) || [0x202E, 0x2066].contains($0.value))
        }
    }

    @Test(arguments: devices)
    func aJoinTheDeviceCannotMakeIsExplainedFromItsScan(device: Device) async throws {
        try await withHarness(scenario: device.scenario([(Self.neighbour, -60)], "Elsewhere")) { h in
            let outcome = try await device.run(h, []).run()
            expectFailure(outcome, code: device.failedJoin, status: 7, secrets: [BLEEndToEndTests.wifiPassword])
            #expect(outcome.standardError.contains("does not hear \"HomeNet\""), "\(outcome.standardError)")
            #expect(outcome.standardError.contains("--hidden"), "\(outcome.standardError)")
            let networks = try #require(outcome.result?["networks"] as? [[String: Any]], "\(outcome)")
            #expect(networks.map { $0["ssid"] as? String } == [Self.neighbour])
            #expect(networks.map { $0["rssi"] as? Int } == [-60])
            #expect(try await device.received(h) == ["HomeNet"])
        }
    }

    @Test(arguments: devices)
    func checkNetworkSendsNothingWhenTheDeviceDoesNotHearTheNetwork(device: Device) async throws {
        try await withHarness(scenario: device.scenario([(Self.neighbour, -60)], nil)) { h in
            let outcome = try await device.run(h, ["--check-network"]).run()
            expectFailure(outcome, code: "network.not-heard", status: 7, secrets: [BLEEndToEndTests.wifiPassword])
            #expect(outcome.standardError.contains("Nothing was sent."), "\(outcome.standardError)")
            let networks = try #require(outcome.result?["networks"] as? [[String: Any]], "\(outcome)")
            #expect(networks.map { $0["ssid"] as? String } == [Self.neighbour])
            #expect(try await device.received(h) == [])
        }
    }

    @Test(arguments: devices)
    func checkNetworkSendsToAHiddenNetworkTheScanMisses(device: Device) async throws {
        try await withHarness(scenario: device.scenario([(Self.neighbour, -60)], nil)) { h in
            let outcome = try await device.run(h, ["--check-network", "--hidden"]).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            #expect(!outcome.everything.contains(BLEEndToEndTests.wifiPassword), "the password was printed")
            #expect(try await device.received(h) == ["HomeNet"])
        }
    }

    @Test(arguments: devices)
    func checkNetworkSendsWhenTheDeviceHearsTheNetwork(device: Device) async throws {
        try await withHarness(scenario: device.scenario([("HomeNet", -50), (Self.neighbour, -60)], nil)) { h in
            let outcome = try await device.run(h, ["--check-network"]).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            #expect(!outcome.everything.contains(BLEEndToEndTests.wifiPassword), "the password was printed")
            #expect(try await device.received(h) == ["HomeNet"])
        }
    }

    /// Generated names holding control sequences, bidirectional overrides and more bytes than Wi-Fi carries:
    /// the list and the explained failure show them escaped, cut to 32 bytes.
    @Test(arguments: devices)
    func hostileNamesInTheScanAreShownInert(device: Device) async throws {
        var random = SplitMix64(seed: 0x5CA_17E)
        let names = (0..<4).map { index in
            (0...index).map { _ in TerminalEscapeEndToEndTests.hostile(&random) }.joined().prefix(60)
        }.map(String.init)
        let cut = Set(names.map { String(decoding: Array($0.utf8.prefix(32)), as: UTF8.self) })
        try await withHarness(scenario: device.scenario(names.enumerated().map { ($1, -50 - $0) }, "Elsewhere")) { h in
            let outcome = try await device.run(h, []).run()
            expectFailure(outcome, code: device.failedJoin, status: 7)
            #expect(Self.isInert(outcome.standardError), "\(outcome.standardError.debugDescription)")
            let networks = try #require(outcome.result?["networks"] as? [[String: Any]], "\(outcome)")
            #expect(Set(networks.compactMap { $0["ssid"] as? String }) == cut, "\(networks)")

            let human = try await device.run(h, ["--list-networks"], human: true).run()
            #expect(human.exitStatus == 7, "\(human)")
            #expect(
                Self.isInert(human.standardOutput + human.standardError), "\(human.standardOutput.debugDescription)")
            #expect(human.standardOutput.contains("ZT\\x"), "\(human.standardOutput)")
        }
    }

    /// `--list-networks` shows what the device reports of each access point: protocomm gives channel, band,
    /// security and BSSID, so `--bssid` choices are visible.
    @Test func theListShowsChannelBandSecurityAndBSSID() async throws {
        let device = Self.devices[1]
        try await withHarness(scenario: device.scenario([("HomeNet", -50)], nil)) { h in
            let human = try await device.run(h, ["--list-networks"], human: true).run()
            #expect(human.exitStatus == 0, "\(human)")
            #expect(
                human.standardOutput.contains("HomeNet\t-50 dBm\tchannel 36 (5 GHz)\tWPA2-PSK\taa:bb:cc:00:00:00\n"),
                "\(human.standardOutput)")
        }
    }

    /// The BluFi scenario with the host's NetworkManager (mock) having heard `HomeNet` as `accessPoint` says.
    static func hostHears(_ accessPoint: [String: JSONValue]) -> JSONValue {
        guard case .object(var members) = BLEEndToEndTests.scenario() else { return .null }
        var heard: [String: JSONValue] = ["ssid": "HomeNet", "bssid": "AA:BB:CC:00:00:05", "psk": "wifi-secret-4711"]
        heard.merge(accessPoint) { $1 }
        members["nm"] = ["access_points": [.object(heard)]]
        return .object(members)
    }

    /// The host's own cached scan, before anything is sent: a network it hears only on 5 GHz and as
    /// WPA3-only gets the two named warnings and is still provisioned.
    @Test func theHostsScanWarnsOfA5GHzOnlyAndWPA3OnlyNetwork() async throws {
        try await withHarness(scenario: Self.hostHears(["frequency": 5180, "rsn_flags": 0x400])) { h in
            let outcome = try await Self.devices[0].run(h, []).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            let warnings = outcome.events.filter { $0["event"] as? String == "warning" }.compactMap {
                $0["code"] as? String
            }
            #expect(warnings == ["network.5ghz-only", "network.wpa3-only"], "\(outcome.events)")
            #expect(outcome.standardError.contains("only on 5 GHz"), "\(outcome.standardError)")
            #expect(try await Self.devices[0].received(h) == ["HomeNet"])
        }
    }

    /// An 802.1X network the host hears is refused before the device is even looked for.
    @Test func theHostsScanRefusesAnEnterpriseNetwork() async throws {
        try await withHarness(scenario: Self.hostHears(["frequency": 2437, "rsn_flags": 0x200])) { h in
            let outcome = try await Self.devices[0].run(h, []).run()
            expectFailure(outcome, code: "network.enterprise", status: 7, secrets: [BLEEndToEndTests.wifiPassword])
            #expect(!outcome.events.contains { $0["event"] as? String == "connecting" }, "\(outcome.events)")
            #expect(try await Self.devices[0].received(h) == [])
        }
    }
}
