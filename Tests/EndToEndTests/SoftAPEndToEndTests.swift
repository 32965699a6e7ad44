import Foundation
import TestSupport
import Testing

/// `ztprov softap` as built, inside the harness's host namespace: NetworkManager is the mock on the
/// private bus, the device's protocomm and Zhiting services run in the device namespace.
///
/// Every case also checks what a person relies on most: the host is back on its previous
/// connection with no temporary profile left, and no secret reached the tool's output.
@Suite(.serialized, .requiresHarnessHost)
struct SoftAPEndToEndTests {
    static let hotspotPassword = "hotspot-e2e-5a4b3c"
    static let proofOfPossession = "pop-e2e-3c2d1e"
    static let wifiPassword = "wifi-e2e-7f6e5d"
    static let accessToken = "AT-softap-e2e-8a9b"
    static let secrets = [hotspotPassword, proofOfPossession, wifiPassword, accessToken]

    /// One security the device runs, and the options that reach it.
    struct Security: Sendable, CustomTestStringConvertible {
        let protocomm: JSONValue
        let options: [String]
        var testDescription: String { "\(protocomm) \(options)" }
    }

    static let securities = [
        Security(protocomm: ["security": 0], options: ["--list-networks"]),
        Security(protocomm: ["security": 1, "pop": .string(proofOfPossession)], options: []),
        Security(protocomm: sec2(patch: 0), options: []),
        Security(protocomm: sec2(patch: 1), options: []),
        Security(protocomm: sec2(patch: 0), options: ["--security", "2", "--sec2-patch", "0"]),
    ]

    static func sec2(patch: Int) -> JSONValue {
        [
            "security": 2, "sec2_patch": .number(Double(patch)), "srp_username": "wifiprov",
            "srp_password": .string(proofOfPossession),
        ]
    }

    /// The harness for one case: a WPA2 hotspot, a previous connection to restore, and the device.
    static func scenario(protocomm: JSONValue) -> JSONValue {
        var device = protocomm
        if case .object(var members) = device {
            members["ap_bssid"] = "24:0a:c4:e2:e0:01"
            members["cleanup_delay_ms"] = 100
            device = .object(members)
        }
        return [
            "nm": [
                "step_ms": 50, "not_found_steps": 3,
                "access_points": [
                    [
                        "ssid": "ZT_E2E", "bssid": "24:0A:C4:E2:E0:01", "strength": 80, "frequency": 2412,
                        "psk": .string(hotspotPassword),
                    ]
                ],
                "previous_connection": ["id": "HomeE2E", "ssid": "HomeNet"],
            ],
            "device_host": ["protocomm": device],
        ]
    }

    /// Launches `ztprov softap` in the host namespace with every secret passed through the environment.
    func launch(_ h: HarnessSession, hotspot: String = "ZT_E2E", _ extra: [String] = []) throws -> ProcessLaunch {
        let interface = h.topology.hostInterface
        return try h.ztprov(
            [
                "softap", "--ap-ssid", hotspot, "--ap-password-env", "E2E_AP", "--pop-env", "E2E_POP",
                "--ssid", "HomeNet", "--password-env", "E2E_WIFI", "--wifi-interface", interface, "--json",
            ] + extra,
            environment: [
                "E2E_AP": Self.hotspotPassword, "E2E_POP": Self.proofOfPossession, "E2E_WIFI": Self.wifiPassword,
                "E2E_TOKEN": Self.accessToken,
            ], deadline: .seconds(90))
    }

    static let handoffOptions = ["--area-id", "42", "--access-token-env", "E2E_TOKEN"]

    @Test(arguments: securities)
    func provisionsAndHandsOff(security: Security) async throws {
        try await withHarness(scenario: Self.scenario(protocomm: security.protocomm)) { h in
            let outcome = try await launch(
                h, security.options + Self.handoffOptions + ["--lan-interface", h.topology.hostInterface]
            ).run()
            #expect(outcome.exitStatus == 0, "\(outcome.standardError)")
            let result = try #require(outcome.result)
            #expect(result["device_id"] as? String == "240ac4e2e001")
            #expect(result["ip"] as? String == "192.168.1.50")
            #expect(result["security"] as? Int == security.protocomm["security"].flatMap(Self.integer))
            if security.options.contains("--list-networks") {
                let listed = outcome.events.first { $0["event"] as? String == "networks" }?["networks"]
                #expect((listed as? [[String: Any]])?.first?["ssid"] as? String == "HomeNet")
            }
            let handoff = try #require(result["handoff"] as? [String: Any])
            #expect(handoff["id"] as? String == "240ac4e2e001")
            #expect(handoff["server"] as? String == "gz.sc.zhitingtech.com")
            let received = String(decoding: try JSONEncoder().encode(try await h.received()), as: UTF8.self)
            #expect(received.contains(Self.wifiPassword), "the device got the Wi-Fi password")
            #expect(received.contains(Self.accessToken), "the device got the access token")
            try await expectCleanHost(h, outcome)
        }
    }

    @Test(arguments: [
        Security(protocomm: ["security": 1, "pop": "another-pop"], options: []),
        Security(protocomm: ["security": 2, "srp_password": "another-pop"], options: []),
    ])
    func aWrongProofOfPossessionExitsSix(security: Security) async throws {
        try await withHarness(scenario: Self.scenario(protocomm: security.protocomm)) { h in
            let outcome = try await launch(h).run()
            expectFailure(outcome, code: "protocomm.wrong-pop", status: 6)
            try await expectCleanHost(h, outcome)
        }
    }

    @Test func aWrongHotspotPasswordExitsSix() async throws {
        try await withHarness(scenario: Self.scenario(protocomm: ["security": 0])) { h in
            var launch = try self.launch(h)
            launch.environment["E2E_AP"] = "not-the-hotspot-password"
            let outcome = try await launch.run()
            expectFailure(outcome, code: "softap.hotspot-password-rejected", status: 6)
            #expect(outcome.result?["code_alias"] as? String == "nm.no-secrets")
            #expect(!outcome.everything.contains("not-the-hotspot-password"))
            try await expectCleanHost(h, outcome)
        }
    }

    @Test func aMissingHotspotExitsFour() async throws {
        try await withHarness(scenario: Self.scenario(protocomm: ["security": 0])) { h in
            // The run's limit cuts the joiner's 15 s scan short, which keeps the test quick.
            let outcome = try await launch(h, hotspot: "ZT_ABSENT", ["--timeout", "4"]).run()
            expectFailure(outcome, code: "softap.hotspot-not-found", status: 4)
            try await expectCleanHost(h, outcome, joined: false)
        }
    }

    /// The hotspot went away after NetworkManager's last scan, which still lists it, and a scan under way when
    /// ztprov starts reports it as heard 3 s before: ztprov must not take the host off its network for it
    /// (NetworkManager would fail only tens of seconds later, SSID_NOT_FOUND).
    @Test func aHotspotThatWentAwayExitsFourWithoutLeavingTheHomeNetwork() async throws {
        var scenario = Self.scenario(protocomm: ["security": 0])
        if case .object(var members) = scenario, case .object(var nm) = members["nm"] {
            nm["access_points"] = [
                [
                    "ssid": "ZT_E2E", "bssid": "24:0A:C4:E2:E0:01", "psk": .string(Self.hotspotPassword),
                    "seen_ago_s": 40, "heard_ago_s": 3, "gone": true,
                ]
            ]
            nm["scan_running_ms"] = 1_000
            members["nm"] = .object(nm)
            scenario = .object(members)
        }
        try await withHarness(scenario: scenario) { h in
            let outcome = try await launch(h, ["--timeout", "4", "--verbose"]).run()
            expectFailure(outcome, code: "softap.hotspot-not-found", status: 4)
            #expect(outcome.standardError.contains("but no scan since has seen it"), "\(outcome.standardError)")
            try await expectCleanHost(h, outcome, joined: false)
        }
    }

    @Test(arguments: [
        ("auth-error", "protocomm.wifi-wrong-password", "authentication error"),
        ("not-found", "protocomm.wifi-not-found", "could not find the network HomeNet"),
    ])
    func aDeviceThatCannotJoinExitsSevenWithItsReason(outcome wifi: String, code: String, reason: String)
        async throws
    {
        try await withHarness(scenario: Self.scenario(protocomm: ["security": 0, "wifi_outcome": .string(wifi)])) {
            h in
            let outcome = try await launch(h).run()
            expectFailure(outcome, code: code, status: 7)
            #expect(outcome.standardError.contains(reason), "\(outcome.standardError)")
            try await expectCleanHost(h, outcome)
        }
    }

    /// The same rules as on BLE, through the hotspot: a network the device's scan misses fails its join with
    /// the scan's explanation, and with `--check-network` is refused before the password goes out.
    @Test func aNetworkTheDeviceDoesNotHearIsExplainedAndWithCheckNetworkNotSent() async throws {
        let heard: JSONValue = [
            ["ssid": "Neighbour", "channel": 1, "rssi": -60, "bssid": "aa:bb:cc:00:00:09", "auth": 3]
        ]
        let protocomm: JSONValue = ["security": 0, "target_ssid": "Elsewhere", "networks": heard]
        try await withHarness(scenario: Self.scenario(protocomm: protocomm)) { h in
            let failed = try await launch(h).run()
            expectFailure(failed, code: "protocomm.wifi-not-found", status: 7, secrets: [Self.wifiPassword])
            #expect(failed.standardError.contains("does not hear \"HomeNet\""), "\(failed.standardError)")
            #expect((failed.result?["networks"] as? [[String: Any]])?.first?["ssid"] as? String == "Neighbour")
            try await expectCleanHost(h, failed)
        }
        try await withHarness(scenario: Self.scenario(protocomm: protocomm)) { h in
            let refused = try await launch(h, ["--check-network"]).run()
            expectFailure(refused, code: "network.not-heard", status: 7, secrets: [Self.wifiPassword])
            let received = String(decoding: try JSONEncoder().encode(try await h.received()), as: UTF8.self)
            #expect(!received.contains(Self.wifiPassword), "the device got the Wi-Fi password")
            try await expectCleanHost(h, refused)
        }
    }

    @Test func ctrlCMidSessionExits130AfterRestoring() async throws {
        let protocomm: JSONValue = ["security": 1, "pop": .string(Self.proofOfPossession), "connecting_polls": 1000]
        try await withHarness(scenario: Self.scenario(protocomm: protocomm)) { h in
            let outcome = try await launch(h).run(interrupting: .whenStandardErrorContains("joining the network"))
            expectFailure(outcome, code: "interrupted", status: 130)
            #expect(outcome.events.contains { $0["event"] as? String == "left-hotspot" })
            try await expectCleanHost(h, outcome)
        }
    }

    /// A second Ctrl-C while the first one's cleanup runs ends ztprov at once, as the first one's message
    /// promises: the restore of the home network (slow here, a second a step) is not waited for.
    @Test func aSecondCtrlCDuringTheCleanupQuitsAtOnce() async throws {
        var scenario = Self.scenario(
            protocomm: ["security": 1, "pop": .string(Self.proofOfPossession), "connecting_polls": 1000])
        if case .object(var members) = scenario, case .object(var nm) = members["nm"] {
            nm["step_ms"] = 1_000
            members["nm"] = .object(nm)
            scenario = .object(members)
        }
        try await withHarness(scenario: scenario) { h in
            try await launch(h).withRunning { process in
                // Both from the thread reading standard error: a test task woken late on a busy machine
                // would send the second only after the cleanup had finished.
                process.send(signal: SIGINT, whenStandardErrorContains: "joining the network")
                process.send(signal: SIGINT, whenStandardErrorContains: "Ctrl-C again quits at once")
                let outcome = await process.waitForExit()
                #expect(outcome.standardError.contains("Ctrl-C again quits at once"), "\(outcome)")
                #expect(outcome.termination == .signalled(SIGINT), "\(outcome)")
                #expect(!outcome.events.contains { $0["event"] as? String == "left-hotspot" }, "\(outcome)")
                for secret in Self.secrets {
                    #expect(!outcome.everything.contains(secret), "\(secret) was printed")
                }
            }
        }
    }

    /// The host is on its previous connection again, no temporary profile is left, and no secret
    /// appears in anything the tool printed.
    ///
    /// - Parameter joined: whether the run got as far as activating a hotspot profile, so the
    ///   restore had something to undo.
    func expectCleanHost(
        _ h: HarnessSession, _ outcome: ProcessOutcome, joined: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let state = try #require(try await h.calls(mock: .nm)["state"], sourceLocation: sourceLocation)
        let methods = (state["calls"]?.array ?? []).compactMap { $0["method"]?.string }
        #expect(methods.contains("AddAndActivateConnection2") == joined, "\(methods)", sourceLocation: sourceLocation)
        let profiles = state["profiles"]?.array ?? []
        #expect(profiles.compactMap { $0["id"]?.string } == ["HomeE2E"], "\(profiles)", sourceLocation: sourceLocation)
        let active = state["active_connections"]?.array ?? []
        #expect(active.compactMap { $0["id"]?.string } == ["HomeE2E"], "\(active)", sourceLocation: sourceLocation)
        #expect(active.first?["state"] == .number(2), "activated", sourceLocation: sourceLocation)
        for secret in Self.secrets {
            #expect(!outcome.everything.contains(secret), "\(secret) was printed", sourceLocation: sourceLocation)
        }
    }

    static func integer(_ value: JSONValue) -> Int? {
        guard case .number(let number) = value else { return nil }
        return Int(number)
    }
}
