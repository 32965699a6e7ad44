import Foundation
import Glibc
import TestSupport
import Testing

/// The runner every end-to-end test relies on, proven on plain system programs.
@Suite struct ProcessLaunchTests {
    @Test func capturesBothStreamsAndTheExitStatus() async throws {
        let outcome = try await ProcessLaunch("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"]).run()
        #expect(outcome.termination == .exited(3))
        #expect(outcome.standardOutput == "out\n")
        #expect(outcome.standardError == "err\n")
        #expect(!outcome.succeeded)
    }

    @Test func feedsStandardInputThenClosesIt() async throws {
        var launch = ProcessLaunch("/bin/cat")
        launch.standardInput = Data("line one\nline two\n".utf8)
        let outcome = try await launch.run()
        #expect(outcome.succeeded)
        #expect(outcome.standardOutput == "line one\nline two\n")
    }

    @Test func survivesAChildThatLeavesItsInputUnread() async throws {
        var launch = ProcessLaunch("/bin/true")
        launch.standardInput = Data(count: 4 << 20)
        let outcome = try await launch.run()
        #expect(outcome.succeeded)
    }

    @Test func addsVariablesToTheInheritedEnvironment() async throws {
        var launch = ProcessLaunch("/bin/sh", ["-c", "echo \"$ZTPROV_E2E_PROBE\"; echo \"$PATH\""])
        launch.environment = ["ZTPROV_E2E_PROBE": "set by the test"]
        let outcome = try await launch.run()
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines == ["set by the test", ProcessInfo.processInfo.environment["PATH", default: ""]])
    }

    @Test func childStartsWithNoSignalBlocked() async throws {
        // Test tasks run on threads that block SIGINT and SIGTERM; a child must not inherit that.
        let status = try await ProcessLaunch("/bin/grep", ["^SigBlk:", "/proc/self/status"]).output()
        #expect(status == "SigBlk:\t0000000000000000\n")
    }

    @Test func childStartsWithNoStandardSignalIgnored() async throws {
        // An ignored signal survives exec; the child gets every standard signal's default action. (glibc
        // keeps two real-time signals of its own, 32 and 33, out of reach.)
        let line = try await ProcessLaunch("/bin/grep", ["^SigIgn:", "/proc/self/status"]).output()
        let ignored = try #require(
            UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespacesAndNewlines), radix: 16))
        #expect(ignored & 0x7FFF_FFFF == 0, "\(line)")
    }

    @Test func startedProcessCanBeWatchedAndSignalled() async throws {
        let process = try ProcessLaunch("/bin/sh", ["-c", "echo listening >&2; exec sleep 30"]).start()
        #expect(await process.waitForStandardError(containing: "listening"))
        process.send(signal: SIGTERM)
        let outcome = await process.waitForExit()
        #expect(outcome.termination == .signalled(SIGTERM))
        #expect(!(await process.waitForStandardError(containing: "never written")))
    }

    @Test func killsAProcessThatOutlivesItsDeadline() async throws {
        var launch = ProcessLaunch("/bin/sleep", ["30"])
        launch.deadline = .milliseconds(300)
        let outcome = try await launch.run()
        // Only the launcher's kill ends sleep with SIGKILL.
        #expect(outcome.termination == .signalled(SIGKILL))
        #expect(outcome.hitDeadline)
    }

    @Test func interruptsAfterADelay() async throws {
        let outcome = try await ProcessLaunch("/bin/sleep", ["30"]).run(interrupting: .after(.milliseconds(200)))
        // Left alone, sleep exits 0 after 30 s; SIGINT means the interrupt ended it.
        #expect(outcome.termination == .signalled(SIGINT))
        #expect(!outcome.hitDeadline)
    }

    @Test func interruptsOnceStandardErrorShowsALine() async throws {
        // The trap answers on stdout, so an interrupt that came before "ready" would leave "ready" unwritten.
        let script = """
            trap 'echo interrupted; exit 130' INT
            sleep 0.3; echo ready >&2
            while :; do sleep 0.05; done
            """
        let outcome = try await ProcessLaunch("/bin/sh", ["-c", script])
            .run(interrupting: .whenStandardErrorContains("ready"))
        #expect(outcome.termination == .exited(130))
        #expect(outcome.standardError == "ready\n")
        #expect(outcome.standardOutput == "interrupted\n")
    }
}
