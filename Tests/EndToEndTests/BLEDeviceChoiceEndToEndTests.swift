import Foundation
import TestSupport
import Testing

/// Three BluFi devices in range and no choice given: a person at a terminal picks one from the list, a
/// script is refused before anything connects, `--pick strongest` takes the strongest; a device powered on
/// after the command started is waited for. Part of the serialized BLE suite.
extension BLEEndToEndTests {
    struct PickerTerminal: Decodable {
        let status: Int
        let appeared: Bool
        let lineModeAfter: Bool
        let transcript: String

        enum CodingKeys: String, CodingKey {
            case status, appeared, transcript
            case lineModeAfter = "line_mode_after"
        }
    }

    /// Three devices, the first heard the weakest: by signal the second is strongest, then the third.
    static let threeInRange: [(address: String, name: String, rssi: Int)] = [
        ("24:0A:C4:00:30:01", "MH-D4E5F6", -71), ("24:0A:C4:00:30:02", "MH-D4E5F7", -44),
        ("24:0A:C4:00:30:03", "MH-D4E5F8", -58),
    ]

    static func scenario(names: [String], rssi: [Int]) -> JSONValue {
        let devices: [JSONValue] = names.indices.map { index in
            [
                "address": .string(threeInRange[index].address), "name": .string(names[index]),
                "rssi": .number(Double(rssi[index])), "advertise_delay_ms": 50, "resolve_delay_ms": 50,
                "blufi": ["version": [1, 4]],
            ]
        }
        return ["bluez": ["devices": .array(devices)]]
    }

    /// `ztprov ble` (no `--json`) on a pseudo-terminal; types `keys` once the output shows `waitFor`.
    static func onPickerTerminal(_ h: HarnessSession, waitFor: String, keys: String) async throws -> PickerTerminal {
        let ble = try h.ztprov(["ble", "--ssid", "HomeNet"], environment: ["ZTPROV_WIFI_PASSWORD": wifiPassword])
        var launch = ProcessLaunch(
            "/usr/bin/python3",
            [RepositoryLayout.harnessDirectory.appending(path: "pick_in_pty.py").path, waitFor, keys, ble.executable]
                + ble.arguments)
        launch.environment = ble.environment
        launch.networkNamespace = ble.networkNamespace
        launch.deadline = .seconds(150)
        let outcome = try await launch.run()
        #expect(outcome.exitStatus == 0, "\(outcome)")
        return try JSONDecoder().decode(PickerTerminal.self, from: Data(outcome.standardOutput.utf8))
    }

    /// The transcript less what ztprov itself draws (colours, and the live region's return, rows up and clear
    /// to the end): nothing left that a terminal acts on.
    static func expectInert(_ transcript: String, _ shown: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let plain = transcript.replacing(/\u{1B}\[[0-9;]*m/, with: "")
            .replacing(/\r\u{1B}\[[0-9]+A\u{1B}\[J/, with: "").replacing("\r\n", with: "\n")
        let active = plain.unicodeScalars.filter {
            $0 != "\n"
                && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value) || [0x202E, 0x2066, 0x200F].contains($0.value))
        }
        #expect(active.isEmpty, "\(shown): \(plain.debugDescription)", sourceLocation: sourceLocation)
    }

    /// The addresses of the emulated devices that were sent the network.
    static func provisioned(_ h: HarnessSession) async throws -> [String] {
        try await h.received(source: .blufi).array?.compactMap { device in
            "\(device)".contains("HomeNet") ? device["address"]?.string : nil
        } ?? []
    }

    @Test func severalDevicesAreChosenByAPersonOrAPolicyAndNeverByTheOrderHeard() async throws {
        let devices = Self.threeInRange
        try await withHarness(scenario: Self.scenario(names: devices.map(\.name), rssi: devices.map(\.rssi))) { h in
            let text = try await h.ztprov(
                ["ble", "--ssid", "HomeNet"], environment: ["ZTPROV_WIFI_PASSWORD": Self.wifiPassword]
            ).run()
            #expect(text.exitStatus == 2, "\(text)")
            #expect(text.standardError.contains("error[ble.several-devices]"), "\(text.standardError)")
            for device in devices {
                #expect(text.standardError.contains("\(device.name) (\(device.address), \(device.rssi) dBm, blufi)"))
            }
            let json = try await Self.ble(h, picksFirst: false).run()
            expectFailure(json, code: "ble.several-devices", status: 2)
            let listed = try #require(json.events.first { $0["event"] as? String == "candidates" }, "\(json)")
            let addresses = (listed["devices"] as? [[String: Any]])?.compactMap { $0["address"] as? String }
            #expect(addresses == [devices[1].address, devices[2].address, devices[0].address], "\(listed)")
            #expect(try await Self.bluezMethods(h).contains("Connect") == false)
            #expect(try await Self.provisioned(h).isEmpty)
            let scanned = try await h.ztprov(["scan", "--duration", "1"]).run()
            #expect(
                scanned.standardError.contains("3 devices match: `ztprov ble` with these options asks"), "\(scanned)")

            // Strongest first, so the second row is the third device; down and Enter choose it.
            let picked = try await Self.onPickerTerminal(h, waitFor: "3 devices match", keys: "\\x1b[B\\r")
            #expect(picked.appeared && picked.status == 0, "\(picked.transcript)")
            #expect(picked.lineModeAfter, "\(picked.transcript)")
            #expect(picked.transcript.contains("Chosen: \(devices[2].name)"), "\(picked.transcript)")
            #expect(try await Self.provisioned(h) == [devices[2].address])

            let strongest = try await Self.ble(h, ["--pick", "strongest"]).run()
            #expect(strongest.exitStatus == 0, "\(strongest)")
            #expect(strongest.result?["address"] as? String == devices[1].address, "\(strongest)")
            #expect(Set(try await Self.provisioned(h)) == [devices[2].address, devices[1].address])
            try await Self.expectCleanAndSilent(strongest, h)
        }
    }

    /// Generated names with control characters, escape sequences, bidirectional marks and great length show
    /// as inert text in the refusal and in the picker, and Ctrl-C at the picker leaves the terminal as it was.
    @Test func hostileNamesAreShownInertAndCtrlCAtThePickerLeavesCleanly() async throws {
        var random = SplitMix64(seed: 0xB1E_0030)
        let names = (0..<3).map { _ in
            TerminalEscapeEndToEndTests.hostile(&random) + String(repeating: "\u{200F}W", count: random.below(60))
        }
        try await withHarness(scenario: Self.scenario(names: names, rssi: [-60, -50, -40])) { h in
            let refused = try await TerminalEscapeEndToEndTests.onTerminal(
                ["ble", "--ssid", "HomeNet", "--scan-timeout", "5"], session: h)
            #expect(refused.status == 2, "\(refused.transcript)")
            #expect(refused.transcript.contains("ble.several-devices"), "\(refused.transcript)")
            Self.expectInert(refused.transcript, "the refusal's list")

            let interrupted = try await Self.onPickerTerminal(h, waitFor: "3 devices match", keys: "\\x03")
            #expect(interrupted.appeared && interrupted.status == 130, "\(interrupted.transcript)")
            #expect(interrupted.lineModeAfter, "\(interrupted.transcript)")
            Self.expectInert(interrupted.transcript, "the picker")
            #expect(try await Self.provisioned(h).isEmpty)
            #expect(try await Self.bluezMethods(h).contains("Connect") == false)
        }
    }

    /// The installer starts the command, then powers the device on: the terminal counts down while it waits,
    /// and the run ends with one summary line and the hand-off still to do.
    @Test func aDevicePoweredOnAfterTheCommandStartedIsWaitedFor() async throws {
        try await withHarness(scenario: Self.scenario(device: ["appears_after_ms": 3000])) { h in
            let terminal = try await TerminalEscapeEndToEndTests.onTerminal(
                ["ble", "--ssid", "HomeNet"], session: h)
            #expect(terminal.status == 0, "\(terminal.transcript)")
            #expect(terminal.transcript.contains("Waiting for a device… "), "\(terminal.transcript)")
            // One clear ending: the result once, in the summary, then the hand-off left to do.
            #expect(terminal.transcript.components(separatedBy: " provisioned: ").count == 2, "\(terminal.transcript)")
            #expect(terminal.transcript.contains("Done in "), "\(terminal.transcript)")
            #expect(
                terminal.transcript.contains("ztprov handoff --device-id \(Self.deviceID) --area-id AREA"),
                "\(terminal.transcript)")
        }
    }
}
