import Foundation
import Records
import SQLiteRecordStore
import TestSupport
import Testing

/// On a real terminal (a pseudo-terminal), record values and scanned labels holding control sequences
/// are shown as text: the CSV export and the refusal of a scanned line act on nothing.
@Suite struct TerminalEscapeEndToEndTests {
    struct Terminal: Decodable {
        let status: Int
        let transcript: String
    }

    static let sequences = [
        "\u{1B}[31m", "\u{1B}[2J", "\u{1B}]0;owned\u{07}", "\u{1B}]8;;http://x.test\u{1B}\\", "\u{9B}2J", "\u{85}",
        "\u{07}", "\r", "\u{7F}", "\u{202E}", "\u{2066}", "\u{8}", "\u{1B}c",
    ]

    static func hostile(_ random: inout SplitMix64) -> String {
        (0..<(1 + random.below(4))).map { _ in "ZT" + sequences[random.below(sequences.count)] }.joined() + "end"
    }

    /// Runs ztprov on a pseudo-terminal (stdout and stderr both) and returns what it drew.
    static func onTerminal(_ arguments: [String]) async throws -> Terminal {
        var launch = ProcessLaunch(
            "/usr/bin/python3",
            [RepositoryLayout.harnessDirectory.appending(path: "run_in_pty.py").path, "--cols", "200", "--"]
                + [try ZTProvProcess.executable()] + arguments)
        launch.environment = HostileRun.noBus.merging(["HOME": "/nonexistent"]) { $1 }
        launch.deadline = .seconds(30)
        let outcome = try await launch.run()
        return try JSONDecoder().decode(Terminal.self, from: Data(outcome.standardOutput.utf8))
    }

    /// Runs ztprov on a pseudo-terminal in the harness's host namespace, on its bus, with the Wi-Fi password
    /// of the BLE suite in the environment.
    static func onTerminal(_ arguments: [String], session h: HarnessSession) async throws -> Terminal {
        let ztprov = try h.ztprov(arguments, environment: ["ZTPROV_WIFI_PASSWORD": BLEEndToEndTests.wifiPassword])
        var launch = ProcessLaunch(
            "/usr/bin/python3",
            [RepositoryLayout.harnessDirectory.appending(path: "run_in_pty.py").path, "--cols", "200", "--"]
                + [ztprov.executable] + ztprov.arguments)
        launch.environment = ztprov.environment
        launch.networkNamespace = ztprov.networkNamespace
        launch.deadline = .seconds(90)
        let outcome = try await launch.run()
        return try JSONDecoder().decode(Terminal.self, from: Data(outcome.standardOutput.utf8))
    }

    /// The transcript less ztprov's own colours and the terminal's `\r\n`: nothing left that acts.
    static func expectInert(_ terminal: Terminal, _ shown: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let plain = terminal.transcript.replacing(/\u{1B}\[[0-9;]*m/, with: "").replacing("\r\r\n", with: "\n")
            .replacing("\r\n", with: "\n")
        let active = plain.unicodeScalars.filter {
            $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value) || [0x202E, 0x2066].contains($0.value))
        }
        #expect(active.isEmpty, "\(shown): \(plain.debugDescription)", sourceLocation: sourceLocation)
    }

    @Test func recordValuesInTheCSVExportActOnNothing() async throws {
        var random = SplitMix64(seed: 0x7E57_0007)
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "records.sqlite").path
        let store = try await SQLiteRecordStore(path: path)
        for _ in 0..<12 {
            var record = RecordSafetyEndToEndTests.record(name: Self.hostile(&random))
            record.station = Self.hostile(&random)
            record.message = Self.hostile(&random)
            record.deviceID = Self.hostile(&random)
            record.firmware = FirmwareVersions(bluFi: Self.hostile(&random), device: Self.hostile(&random))
            try await store.append(record)
        }
        let terminal = try await Self.onTerminal(["report", "--format", "csv", "--db", path])
        #expect(terminal.status == 0, "\(terminal.transcript)")
        Self.expectInert(terminal, "report --format csv")
        #expect(
            terminal.transcript.contains("ZT\\x1B[31m") || terminal.transcript.contains("ZT\\x1B"),
            "\(terminal.transcript)")
    }

    @Test func aRefusedScannedLabelActsOnNothing() async throws {
        var random = SplitMix64(seed: 0x7E57_0008)
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for round in 0..<6 {
            let units = try HostileRun.file(
                "units\(round).csv", Array("address,name\n24:0A:\(Self.hostile(&random)),x\n".utf8), in: directory)
            let terminal = try await Self.onTerminal([
                "batch", "--ssid", "Net", "--open-network", "--devices", units, "--db",
                directory.appending(path: "r.sqlite").path,
            ])
            #expect(terminal.status == 2, "\(terminal.transcript)")
            Self.expectInert(terminal, "batch with a hostile label")
        }
    }
}
