import Foundation
import Glibc
import TestSupport
import Testing

/// `batch` reading units from stdin (a scanner's pipe, a terminal) ends as soon as a signal or a fatal host
/// error says so, never waiting for another line or the end of input: the input side never holds the exit.
@Suite(.timeLimit(.minutes(5))) struct BatchStandardInputExitEndToEndTests {
    static let signals: [(Int32, Int32, String)] = [
        (SIGINT, 130, "interrupted"), (SIGTERM, 143, "interrupted.terminated"), (SIGHUP, 129, "interrupted.hangup"),
    ]

    /// A softap batch (its lanes need no bus) reading stdin; NetworkManager is unreachable, so a unit that
    /// arrives stops the only lane with a host error.
    static func launch(in directory: URL, json: Bool) throws -> ProcessLaunch {
        var launch = try ZTProvProcess.launch(
            [
                "batch", "--path", "softap", "--ssid", "Net", "--open-network", "--db",
                directory.appending(path: "records.sqlite").path,
            ] + (json ? ["--json"] : []))
        launch.environment = HostileRun.noBus
        launch.holdsStandardInput = true
        // The run is bounded only by what these tests check: a batch waiting on its input has no time limit.
        launch.deadline = .seconds(20)
        return launch
    }

    /// Each signal, with and without --json, after a generated number of rejected lines: the batch ends
    /// with the signal's status while its stdin pipe stays open and silent.
    @Test func aSignalEndsABatchWaitingOnAnOpenPipe() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SplitMix64(seed: 0x57D1)
        for (signal, status, code) in Self.signals {
            for json in [false, true] {
                let rejected = random.below(3)
                let outcome = try await Self.launch(in: directory, json: json).withRunning { process in
                    _ = await process.waitForStandardError(containing: "Batch ")
                    for _ in 0..<rejected { try? process.writeLine("MH-\(random.next()),pop,extra") }
                    if rejected > 0 { _ = await process.waitForStandardError(containing: "The line is skipped") }
                    process.send(signal: signal)
                    return await process.waitForExit()
                }
                #expect(!outcome.hitDeadline, "held by its input: \(outcome)")
                #expect(outcome.termination == .exited(status), "\(outcome)")
                #expect(outcome.standardError.contains("error[\(code)]"), "\(outcome)")
                if json { #expect(outcome.result?["code"] as? String == code, "\(outcome)") }
            }
        }
    }

    /// A unit whose attempt finds no NetworkManager stops the only lane: the batch exits 3 at once, its stdin
    /// still open.
    @Test func aFatalHostErrorEndsABatchWaitingOnAnOpenPipe() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SplitMix64(seed: 0xFA7A)
        for _ in 0..<2 {
            let outcome = try await Self.launch(in: directory, json: false).withRunning { process in
                _ = await process.waitForStandardError(containing: "Batch ")
                try? process.writeLine("ZT_\(String(random.next() % 0xFFFFFF, radix: 16, uppercase: true))")
                return await process.waitForExit()
            }
            #expect(!outcome.hitDeadline, "held by its input: \(outcome)")
            #expect(outcome.termination == .exited(3), "\(outcome)")
            #expect(outcome.standardError.contains("error[host.networkmanager-absent]"), "\(outcome)")
        }
    }

    /// Units typed on a terminal: each signal ends the batch, and so does the terminal hanging up (129);
    /// the JSON result reaches stdout when stdout is a file, and a hang-up leaves nothing on the terminal.
    @Test func aSignalOrAHangUpEndsABatchReadingATerminal() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let events: [(HangUpTerminal.Event, Int, String)] =
            Self.signals.map { (.signal($0.0), Int($0.1), $0.2) } + [(.hangUp, 129, "interrupted.hangup")]
        for (index, (event, status, code)) in events.enumerated() {
            let stdout = directory.appending(path: "stdout-\(index).jsonl").path
            let terminal = try await HangUpTerminal.run(
                try Self.launch(in: directory, json: true), after: "Ctrl-D ends the batch", event, stdoutFile: stdout)
            #expect(terminal.status == status, "\(event): \(terminal)")
            let result = try String(contentsOfFile: stdout, encoding: .utf8)
            #expect(result.contains("\"code\":\"\(code)\""), "\(event): \(result)")
            if case .signal(SIGHUP) = event {
                #expect(!(terminal.after ?? "").contains("Interrupted"), "written to a hung-up terminal: \(terminal)")
                #expect(!(terminal.after ?? "").contains("error["), "written to a hung-up terminal: \(terminal)")
            }
        }
    }
}
