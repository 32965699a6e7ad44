import Foundation
import Glibc
import TestSupport
import Testing

/// A system bus that takes the connection and never answers (a wedged dbus-daemon) costs every command at
/// most its own time limit, then `host.bus-not-answering` (3); and the first Ctrl-C, SIGTERM or SIGHUP ends
/// the wait at once with that signal's status.
@Suite(.timeLimit(.minutes(5))) struct SilentBusEndToEndTests {
    /// Every command that reaches the bus, with a time limit of `seconds` where it takes one.
    static func commands(seconds: String, in directory: URL) throws -> [[String]] {
        let units = try HostileRun.file("units.csv", Array("ZT_UNIT1\n".utf8), in: directory)
        let records = directory.appending(path: "records.sqlite").path
        return [
            ["ble", "--ssid", "Net", "--open-network", "--timeout", seconds],
            ["softap", "--ap-ssid", "ZT_1", "--ssid", "Net", "--open-network", "--timeout", seconds],
            ["scan", "--duration", "1"],
            ["doctor"],
            ["batch", "--ssid", "Net", "--open-network", "--devices", units, "--db", records],
            [
                "batch", "--path", "softap", "--ssid", "Net", "--open-network", "--devices", units, "--db", records,
                "--attempt-timeout", seconds, "--retries", "0",
            ],
        ]
    }

    static func launch(_ arguments: [String], bus: SilentBus) throws -> ProcessLaunch {
        var launch = try ZTProvProcess.launch(arguments)
        launch.environment = ["DBUS_SYSTEM_BUS_ADDRESS": bus.address]
        launch.deadline = .seconds(40)
        return launch
    }

    /// Generated limits from 1 to 6 s: each command gives up by its own limit (10 s where it has none),
    /// names the bus, and exits 3.
    @Test func aSilentBusCostsAtMostTheCommandsTimeLimit() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bus = try SilentBus(in: directory)
        defer { bus.close() }
        var random = SplitMix64(seed: 0x51_1E47)
        for arguments in try Self.commands(seconds: "1", in: directory) {
            let seconds = "\(1 + random.below(6)).\(random.below(10))"
            let generated = arguments.map { $0 == "1" && arguments.first != "scan" ? seconds : $0 }
            var launch = try Self.launch(generated, bus: bus)
            launch.deadline = .seconds(25)
            let outcome = try await launch.run()
            let shown = "\(generated) →\n\(outcome)"
            #expect(!outcome.hitDeadline, "hung: \(shown)")
            #expect((outcome.standardOutput + outcome.standardError).contains("did not answer"), "\(shown)")
            if generated.first != "doctor" {
                #expect(outcome.termination == .exited(3), "\(shown)")
                #expect(outcome.standardError.contains("error[host.bus-not-answering]"), "\(shown)")
            }
        }
    }

    /// A signal while the bus keeps silent ends each command at once, with that signal's status.
    @Test(
        arguments: [
            (SIGINT, 130, "interrupted"), (SIGTERM, 143, "interrupted.terminated"), (SIGHUP, 129, "interrupted.hangup"),
        ]
            as [(Int32, Int32, String)])
    func aSignalEndsTheWaitForASilentBus(signal: Int32, status: Int32, code: String) async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bus = try SilentBus(in: directory)
        defer { bus.close() }
        for arguments in try Self.commands(seconds: "30", in: directory) {
            var launch = try Self.launch(arguments, bus: bus)
            // What ended the command is told by its status and code (the bus's own limit would be
            // `host.bus-not-answering`, 3), not by the time: the first launches of the pass share two cores
            // with every other suite's start-up.
            launch.deadline = .seconds(40)
            let connectionsBefore = bus.connections
            let outcome = try await launch.withRunning { process in
                // Once the command waits on the silent bus's handshake (a moment after it connects), from
                // threads that a busy test process cannot hold up.
                bus.whenConnections(exceed: connectionsBefore) {
                    DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { process.send(signal: signal) }
                }
                return await process.waitForExit()
            }
            let shown = "\(arguments) →\n\(outcome)"
            #expect(!outcome.hitDeadline, "hung: \(shown)")
            #expect(outcome.termination == .exited(status), "\(shown)")
            #expect(outcome.standardError.contains("error[\(code)]"), "\(shown)")
        }
    }
}
