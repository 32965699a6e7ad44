import Foundation
import TestSupport
import Testing

/// `ztprov ble --protocol protocomm|auto` as the built binary against the BlueZ mock's ESP
/// network_provisioning device (`device.protocomm_ble`, a Python model not built from our Swift cores).
///
/// Every case checks that no secret reaches the output and that the link was released.
@Suite(.serialized, .requiresHarnessHost)
struct BLEProtocommEndToEndTests {
    static let wifiPassword = "wifi-secret-4711"
    static let retryPassword = "wifi-retry-0815"
    static let pop = "pop-secret-2718"
    static let srpPassword = "srp-secret-3141"
    static let accessToken = "AT-pc-e2e-9a8b7c"
    static let fast: [String: JSONValue] = ["advertise_delay_ms": 50, "resolve_delay_ms": 50]

    /// A protocomm-over-BLE device at `address` with these protocomm settings and `extra` BLE keys. It
    /// stops its BLE service 2 s after answering "connected" (ESP's default is 1 s), so a loaded test
    /// machine's gap between the status write and its read does not lose the answer.
    static func device(
        _ address: String, protocomm: [String: JSONValue], mtu: Int = 23, extra: [String: JSONValue] = [:]
    ) -> JSONValue {
        var model: [String: JSONValue] = [
            "pop": .string(pop), "srp_password": .string(srpPassword), "connecting_polls": 1,
            "cleanup_delay_ms": 2000,
        ]
        model.merge(protocomm) { $1 }
        var settings: [String: JSONValue] = ["protocomm": .object(model)]
        settings.merge(extra) { $1 }
        var entry = fast
        entry["address"] = .string(address)
        entry["mtu"] = .number(Double(mtu))
        entry["protocomm_ble"] = .object(settings)
        return .object(entry)
    }

    /// A BlueZ mock scenario with these devices.
    static func scenario(_ devices: JSONValue...) -> JSONValue {
        ["bluez": ["devices": .array(devices)]]
    }

    static func ble(_ h: HarnessSession, _ extra: [String], environment: [String: String] = [:]) throws
        -> ProcessLaunch
    {
        try h.ztprov(
            ["ble", "--ssid", "HomeNet", "--json", "--verbose"] + extra,
            environment: [
                "ZTPROV_WIFI_PASSWORD": wifiPassword, "ZTPROV_E2E_POP": pop, "ZTPROV_E2E_SRP": srpPassword,
                "ZTPROV_E2E_TOKEN": accessToken,
            ].merging(environment) { $1 })
    }

    /// No secret in the output, and each connection ended with our Disconnect (the device may stop its
    /// service and drop the link first; bluetoothd then still gets the call).
    static func expectCleanAndSilent(
        _ outcome: ProcessOutcome, _ h: HarnessSession, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for secret in [wifiPassword, retryPassword, pop, srpPassword, accessToken] {
            #expect(!outcome.everything.contains(secret), "leaked", sourceLocation: sourceLocation)
        }
        let methods = try await BLEEndToEndTests.bluezMethods(h)
        if methods.contains("Connect") {
            let connects = methods.filter { $0 == "Connect" }.count
            let disconnects = methods.filter { $0 == "Disconnect" }.count
            #expect(disconnects >= connects, "\(methods)", sourceLocation: sourceLocation)
            #expect(
                methods.lastIndex(of: "Disconnect") ?? 0 > methods.lastIndex(of: "WriteValue") ?? 0, "\(methods)",
                sourceLocation: sourceLocation)
        }
    }

    /// What the device at `address` recorded (exchanges with their ATT PDU counts, protocomm events).
    static func record(_ h: HarnessSession, _ address: String) async throws -> JSONValue {
        let all = try await h.received(source: .protocommBLE)
        return all.array?.first { $0["address"]?.string == address } ?? .null
    }

    static func events(_ record: JSONValue, _ name: String) -> [JSONValue] {
        (record["protocomm"]?.array ?? []).filter { $0["event"]?.string == name }
    }

    static let securityAddresses = (0..<5).map { "24:0A:C4:00:31:0\($0)" }

    /// Security 0, 1 with PoP, 1 without PoP (at MTU 23), and 2 with either patch level (at MTU 517),
    /// each decided from proto-ver.
    @Test func everySecuritySchemeAtBothMTUs() async throws {
        let devices: [JSONValue] = [
            Self.device(Self.securityAddresses[0], protocomm: ["security": 0]),
            Self.device(Self.securityAddresses[1], protocomm: ["security": 1]),
            Self.device(Self.securityAddresses[2], protocomm: ["security": 1, "pop": ""]),
            Self.device(Self.securityAddresses[3], protocomm: ["security": 2, "sec2_patch": 0], mtu: 517),
            Self.device(Self.securityAddresses[4], protocomm: ["security": 2, "sec2_patch": 1], mtu: 517),
        ]
        let expected: [(level: Int, patch: Int?, pop: Bool, mtu: Int)] = [
            (0, nil, false, 23), (1, nil, true, 23), (1, nil, false, 23), (2, 0, false, 517), (2, 1, false, 517),
        ]
        try await withHarness(scenario: ["bluez": ["devices": .array(devices)]]) { h in
            for (address, want) in zip(Self.securityAddresses, expected) {
                let secret = want.level == 2 ? "ZTPROV_E2E_SRP" : "ZTPROV_E2E_POP"
                let outcome = try await Self.ble(
                    h, ["--device", address, "--protocol", "protocomm", "--pop-env", secret]
                ).run()
                #expect(outcome.exitStatus == 0, "\(address): \(outcome)")
                let result = try #require(outcome.result, "\(outcome)")
                #expect(result["protocol"] as? String == "protocomm")
                #expect(result["security"] as? Int == want.level, "\(result)")
                let plain =
                    want.level == 1
                    ? (want.pop ? "protocomm-sec1-pop" : "protocomm-sec1") : "protocomm-sec\(want.level)"
                #expect(result["secured_with"] as? String == plain, "an unpaired link is plain: \(result)")
                #expect(result["mtu"] as? Int == want.mtu)
                #expect(result["ip"] as? String == "192.168.1.50")
                #expect(result["endpoints_named_by"] as? String == "user-descriptions")
                let record = try await Self.record(h, address)
                let configured = Self.events(record, "set_config")
                #expect(configured.first?["passphrase"]?.string == Self.wifiPassword, "\(record)")
                let session = record["exchanges"]?.array?.first { $0["endpoint"]?.string == "prov-session" }
                if want.mtu == 23, want.level > 0 {
                    let pdus: Double = if case .number(let count)? = session?["write_pdus"] { count } else { 0 }
                    #expect(pdus > 1, "long write expected: \(String(describing: session))")
                }
                try await Self.expectCleanAndSilent(outcome, h)
            }
        }
    }

    @Test func theScanIsListedAndTheWrongPasswordIsRetriedAfterTheReset() async throws {
        let address = "24:0A:C4:00:32:01"
        let networks: JSONValue = .array(
            (0..<6).map { index in
                [
                    "ssid": .string(index == 0 ? "HomeNet" : "Net-\(index)"), "channel": 6,
                    "rssi": .number(Double(-40 - index)), "bssid": .string("aa:bb:cc:00:00:0\(index)"), "auth": 3,
                ]
            })
        let scenario = Self.scenario(
            Self.device(
                address,
                protocomm: [
                    "security": 2, "target_ssid": "HomeNet", "target_passphrase": .string(Self.retryPassword),
                    "networks": networks,
                ])
        )
        try await withHarness(scenario: scenario) { h in
            let outcome = try await Self.ble(
                h,
                [
                    "--device", address, "--pop-env", "ZTPROV_E2E_SRP", "--list-networks",
                    "--retry-password-env", "ZTPROV_E2E_RETRY",
                ],
                environment: ["ZTPROV_E2E_RETRY": Self.retryPassword]
            ).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            #expect(outcome.result?["protocol"] as? String == "protocomm")
            #expect(outcome.result?["credential_attempts"] as? Int == 2, "\(String(describing: outcome.result))")
            #expect(outcome.events.contains { $0["event"] as? String == "device-reset" })
            let listed = outcome.events.first { $0["event"] as? String == "networks" }
            #expect((listed?["networks"] as? [Any])?.count == 6, "\(String(describing: listed))")
            let record = try await Self.record(h, address)
            #expect(Self.events(record, "set_config").count == 2)
            #expect(Self.events(record, "ctrl_reset").count == 1)
            try await Self.expectCleanAndSilent(outcome, h)
        }
    }

    @Test func aWrongPasswordOnFirmwareThatCannotResetIsAClearError() async throws {
        let address = "24:0A:C4:00:33:01"
        let scenario = Self.scenario(
            Self.device(
                address,
                protocomm: [
                    "security": 0, "target_ssid": "HomeNet", "target_passphrase": "another-one",
                    "ctrl_endpoint": false,
                ])
        )
        try await withHarness(scenario: scenario) { h in
            let outcome = try await Self.ble(
                h, ["--device", address, "--retry-password-env", "ZTPROV_E2E_RETRY"],
                environment: ["ZTPROV_E2E_RETRY": Self.retryPassword]
            ).run()
            expectFailure(outcome, code: "protocomm.wifi-wrong-password", status: 7)
            #expect(outcome.standardError.contains("power-cycle"), "\(outcome.standardError)")
            #expect(Self.events(try await Self.record(h, address), "set_config").count == 1)
            try await Self.expectCleanAndSilent(outcome, h)
        }
    }

    /// A BluFi device and a protocomm device side by side: auto picks each one's protocol.
    @Test func autoPicksTheRightProtocolForEachDeviceAndHandsOffAfterProtocomm() async throws {
        let protocommAddress = "24:0A:C4:00:34:01"
        let bluFiAddress = "24:0A:C4:00:34:02"
        var bluFi = Self.fast
        bluFi["address"] = .string(bluFiAddress)
        bluFi["blufi"] = ["device_id": .string(BLEEndToEndTests.deviceID), "version": [1, 4]]
        let scenario: JSONValue = [
            "bluez": [
                "devices": [
                    Self.device(protocommAddress, protocomm: ["security": 1, "station_ip": "192.168.4.1"]),
                    .object(bluFi),
                ]
            ],
            "device_host": ["zhiting": ["device_id": .string(BLEEndToEndTests.deviceID)]],
        ]
        try await withHarness(scenario: scenario) { h in
            let scanned = try await h.ztprov(["scan", "--json", "--duration", "1"]).run()
            #expect(scanned.exitStatus == 0, "\(scanned)")
            let devices = scanned.events.filter { $0["event"] as? String == "device" }
            let protocols = Dictionary(
                devices.compactMap { device in
                    (device["address"] as? String).map { ($0, device["protocol"] as? String) }
                }
            ) { first, _ in first }
            #expect(protocols[protocommAddress] == "protocomm", "\(devices)")
            #expect(protocols[bluFiAddress] == "blufi", "\(devices)")

            let viaBluFi = try await Self.ble(h, ["--device", bluFiAddress]).run()
            #expect(viaBluFi.exitStatus == 0, "\(viaBluFi)")
            #expect(viaBluFi.result?["protocol"] as? String == "blufi")
            let viaProtocomm = try await Self.ble(
                h,
                [
                    "--device", protocommAddress, "--pop-env", "ZTPROV_E2E_POP", "--area-id", "42",
                    "--access-token-env", "ZTPROV_E2E_TOKEN", "--lan-interface", h.topology.hostInterface,
                ]
            ).run()
            #expect(viaProtocomm.exitStatus == 0, "\(viaProtocomm)")
            #expect(viaProtocomm.result?["protocol"] as? String == "protocomm")
            let detected = viaProtocomm.events.first { $0["event"] as? String == "protocol" }
            #expect(detected?["detected_from"] as? String == "advertisement")
            let handoff = try #require(viaProtocomm.result?["handoff"] as? [String: Any], "\(viaProtocomm)")
            #expect(handoff["id"] as? String == BLEEndToEndTests.deviceID)
            #expect(handoff["ip"] as? String == h.topology.deviceIp)
            try await Self.expectCleanAndSilent(viaProtocomm, h)
        }
    }

    /// Firmware with its own service UUID and no user descriptions is found through the endpoint numbers
    /// once the QR payload says what it is (and supplies name, PoP and security); with descriptions, auto
    /// detection recognises it from its GATT database.
    @Test func aQRPayloadAndFirmwareWithoutDescriptions() async throws {
        let address = "24:0A:C4:00:35:01"
        let named = "24:0A:C4:00:35:02"
        let service = "0b5a0000-1234-4321-8765-0123456789ab"
        let scenario = Self.scenario(
            Self.device(
                address, protocomm: ["security": 1],
                extra: ["service_uuid": .string(service), "user_descriptions": false]),
            Self.device(named, protocomm: ["security": 0], extra: ["service_uuid": .string(service)]),
        )
        try await withHarness(scenario: scenario) { h in
            let file = h.runDirectory.appendingPathComponent("qr.json")
            try Data(
                #"{"ver":"v1","name":"PROV_003501","pop":"\#(Self.pop)","transport":"ble","security":1}"#.utf8
            ).write(to: file)
            let outcome = try await Self.ble(h, ["--qr-file", file.path]).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            #expect(outcome.result?["service_uuid"] as? String == service)
            #expect(outcome.result?["endpoints_named_by"] as? String == "endpoint-numbers")
            try await Self.expectCleanAndSilent(outcome, h)

            let detected = try await Self.ble(h, ["--device", named]).run()
            #expect(detected.exitStatus == 0, "\(detected)")
            let choice = detected.events.first { $0["event"] as? String == "protocol" }
            #expect(choice?["protocol"] as? String == "protocomm" && choice?["detected_from"] as? String == "gatt")
            #expect(detected.result?["endpoints_named_by"] as? String == "user-descriptions")
            try await Self.expectCleanAndSilent(detected, h)
        }
    }

    /// Firmware with forced encryption refuses every endpoint until the link is paired: ztprov pairs Just Works
    /// through its own NoInputNoOutput agent, provisions, and removes the bond unless --keep-bond.
    @Test func aDeviceThatInsistsOnPairingIsPairedAndTheBondRemovedAfterwards() async throws {
        let removed = "24:0A:C4:00:37:01"
        let kept = "24:0A:C4:00:37:02"
        let strict = "24:0A:C4:00:37:03"
        let scenario = Self.scenario(
            Self.device(removed, protocomm: ["security": 1], extra: ["pairing": ["required": true]]),
            Self.device(kept, protocomm: ["security": 0], extra: ["pairing": ["required": true]]),
            Self.device(
                strict, protocomm: ["security": 0],
                extra: ["pairing": ["required": true, "agent_required": true]]),
        )
        try await withHarness(scenario: scenario) { h in
            let runs = [
                (removed, ["--pop-env", "ZTPROV_E2E_POP"], "protocomm-sec1-pop"), (strict, [], "protocomm-sec0"),
            ]
            for (address, extra, security) in runs {
                let outcome = try await Self.ble(h, ["--device", address] + extra).run()
                #expect(outcome.exitStatus == 0, "\(outcome)")
                #expect(outcome.result?["secured_with"] as? String == security + "+encrypted-link", "\(outcome)")
                let methods = try await BLEEndToEndTests.bluezMethods(h)
                #expect(methods.suffix(3).contains("RemoveDevice"), "\(methods)")
                #expect(methods.contains("RegisterAgent") && methods.last == "UnregisterAgent", "\(methods)")
                let events = try await Self.record(h, address)["ble"]?["events"]?.array ?? []
                #expect(events.contains { $0["event"]?.string == "bond-removed" }, "\(events)")
                try await Self.expectCleanAndSilent(outcome, h)
            }
            let keeping = try await Self.ble(h, ["--device", kept, "--keep-bond"]).run()
            #expect(keeping.exitStatus == 0, "\(keeping)")
            let events = try await Self.record(h, kept)["ble"]?["events"]?.array ?? []
            #expect(!events.contains { $0["event"]?.string == "bond-removed" }, "\(events)")
            try await Self.expectCleanAndSilent(keeping, h)
        }
    }

    /// bluetoothd 5.66 pairs by itself on the refused access (as on the lab's Linux 6.1). Where that pairing
    /// needs a default agent to confirm Just Works and there is none, the access is never answered: ztprov pairs
    /// meanwhile through its own agent and the device provisions. A device that refuses pairing drops the link
    /// and the access fails with ATT 0x0e: ztprov pairs to find out and ends in `ble.pairing-failed` (6). Each
    /// leaves the link released and no bond.
    @Test func aPairingBluetoothdLeftHangingIsPairedOrNamed() async throws {
        let needsConfirmation = "24:0A:C4:00:38:01"
        let refusing = "24:0A:C4:00:38:02"
        let scenario = Self.scenario(
            Self.device(
                needsConfirmation, protocomm: ["security": 0],
                extra: [
                    "pairing": ["required": true, "auto_pair_on_access": true, "auto_pair_needs_agent": true]
                ]),
            Self.device(
                refusing, protocomm: ["security": 0],
                extra: ["pairing": ["required": true, "auto_pair_on_access": true, "accept": false]]),
        )
        try await withHarness(scenario: scenario) { h in
            let paired = try await Self.ble(h, ["--device", needsConfirmation]).run()
            #expect(paired.exitStatus == 0, "\(paired)")
            let events = try await Self.record(h, needsConfirmation)["ble"]?["events"]?.array ?? []
            let kinds = events.compactMap { $0["event"]?.string }
            #expect(kinds.contains("auto-pair-failed") && kinds.contains("bond-removed"), "\(events)")
            try await Self.expectCleanAndSilent(paired, h)

            let earlier = try await BLEEndToEndTests.bluezMethods(h).count
            let unpaired = try await Self.ble(h, ["--device", refusing]).run()
            expectFailure(unpaired, code: "ble.pairing-failed", status: 6)
            #expect(unpaired.standardError.contains("AuthenticationFailed"), "\(unpaired.standardError)")
            let methods = try await BLEEndToEndTests.bluezMethods(h).dropFirst(earlier)
            #expect(methods.contains("Pair"), "\(methods)")
            #expect(methods.last == "UnregisterAgent" && !methods.contains("RemoveDevice"), "\(methods)")
            try await Self.expectCleanAndSilent(unpaired, h)
        }
    }

    @Test func namedFailuresExitWithTheirStatusAndReleaseTheLink() async throws {
        let wrongPoP = "24:0A:C4:00:36:01"
        let refusing = "24:0A:C4:00:36:02"
        let scenario = Self.scenario(
            Self.device(wrongPoP, protocomm: ["security": 1]),
            Self.device(
                refusing, protocomm: ["security": 0], extra: ["pairing": ["required": true, "accept": false]]),
        )
        try await withHarness(scenario: scenario) { h in
            let rejected = try await Self.ble(
                h, ["--device", wrongPoP, "--pop-env", "ZTPROV_E2E_SRP"]
            ).run()
            expectFailure(rejected, code: "protocomm.wrong-pop", status: 6)
            try await Self.expectCleanAndSilent(rejected, h)

            let unpaired = try await Self.ble(h, ["--device", refusing]).run()
            expectFailure(unpaired, code: "ble.pairing-failed", status: 6)
            #expect(unpaired.standardError.contains("AuthenticationFailed"), "\(unpaired.standardError)")
            let methods = try await BLEEndToEndTests.bluezMethods(h)
            #expect(methods.last == "UnregisterAgent" && !methods.contains("RemoveDevice"), "\(methods)")
            try await Self.expectCleanAndSilent(unpaired, h)

            let wrongProtocol = try await Self.ble(h, ["--device", wrongPoP, "--protocol", "blufi"]).run()
            expectFailure(wrongProtocol, code: "ble.services-missing", status: 5)
            try await Self.expectCleanAndSilent(wrongProtocol, h)

            let blufiOption = try await Self.ble(h, ["--device", wrongPoP, "--protocol", "improv", "--sec-ver", "1"])
                .run()
            expectFailure(blufiOption, code: "usage.invalid-option", status: 2)
        }
    }
}
