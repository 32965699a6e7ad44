import Foundation
import Glibc
import TestSupport
import Testing

/// Children of a test die with the test process: a killed `swift test` leaves no helper behind.
///
/// The parent here is this test binary run again with only ``probeStartsAChildAndWaits()`` enabled;
/// it starts `sleep` through the launcher, prints the child's PID, and waits to be killed.
@Suite struct ProcessLaunchLifetimeTests {
    static let probeVariable = "ZTPROV_E2E_ORPHAN_PROBE"

    @Test(.enabled(if: ProcessInfo.processInfo.environment[probeVariable] == "1", "runs only as the probe parent"))
    func probeStartsAChildAndWaits() async throws {
        var launch = ProcessLaunch("/bin/sleep", ["120"])
        launch.deadline = .seconds(120)
        let child = try launch.start()
        print("probe-child-pid \(child.pid)")
        fflush(nil)
        try await Task.sleep(for: .seconds(120))
    }

    @Test func aChildDiesWhenTheTestProcessThatStartedItIsKilled() async throws {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var launch = ProcessLaunch(
            testBinary, ["--testing-library", "swift-testing", "--filter", "probeStartsAChildAndWaits"])
        launch.environment = [Self.probeVariable: "1"]
        launch.deadline = .seconds(120)
        try await launch.withRunning { parent in
            try await parent.waitUntilReadyForProbe()
            let line = try #require(
                parent.standardOutputSoFar.split(separator: "\n").first { $0.hasPrefix("probe-child-pid ") })
            let pid = try #require(Int32(line.dropFirst("probe-child-pid ".count)))
            let child = try #require(ProcessIdentity(pid: pid), "the probe's child is not running")
            // setpriv asks for the signal just before it runs `sleep`; a parent killed before that leaves the
            // child without it, which is the shim's window, not the promise under test.
            let running = ContinuousClock.now + .seconds(20)
            while Self.command(of: pid) != "sleep" && ContinuousClock.now < running {
                try await Task.sleep(for: .milliseconds(5))
            }
            try #require(Self.command(of: pid) == "sleep", "the probe's child never ran sleep")
            parent.send(signal: SIGKILL)
            _ = await parent.waitForExit()
            let giveUp = ContinuousClock.now + .seconds(20)
            while child.isAlive && ContinuousClock.now < giveUp {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(!child.isAlive, "pid \(pid) outlived the killed test process")
        }
    }

    /// The name the kernel gives `pid`'s program (`/proc/PID/comm`), if it runs.
    private static func command(of pid: Int32) -> String? {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aHelperAnswersLineByLineOverItsHeldInput() async throws {
        var launch = ProcessLaunch("/bin/sh", ["-c", "while read -r line; do echo \"got $line\"; done"])
        launch.holdsStandardInput = true
        try await launch.withRunning { helper in
            try helper.writeLine("one")
            #expect(await helper.nextStandardOutputLine() == "got one")
            try helper.writeLine("two")
            try helper.writeLine("three")
            #expect(await helper.nextStandardOutputLine() == "got two")
            #expect(await helper.nextStandardOutputLine() == "got three")
            helper.closeStandardInput()
            #expect(await helper.nextStandardOutputLine() == nil)
            #expect(throws: ProcessLaunchError.self) { try helper.writeLine("after the end") }
        }
    }

    @Test func writingToAHelperThatHasGoneThrowsInsteadOfRaisingSIGPIPE() async throws {
        var launch = ProcessLaunch("/bin/true")
        launch.holdsStandardInput = true
        let helper = try launch.start()
        _ = await helper.waitForExit()
        #expect(throws: ProcessLaunchError.self) { try helper.writeLine("nobody reads this") }
        helper.closeStandardInput()
    }

    @Test(arguments: [StandardOutput.path("/dev/full"), .brokenPipe])
    func standardOutputThatCannotBeWrittenFailsTheWrites(_ sink: StandardOutput) async throws {
        var launch = ProcessLaunch("/bin/sh", ["-c", "trap '' PIPE; echo lost || echo failed >&2"])
        launch.standardOutput = sink
        let outcome = try await launch.run()
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.contains("failed"), "\(outcome)")
    }

    @Test func aProgramThatCannotRunIsRefusedAtOnce() throws {
        #expect(throws: ProcessLaunchError.self) { try ProcessLaunch("/nonexistent/ztprov-probe").start() }
    }
}

extension RunningProcess {
    /// Waits until the probe parent has printed its child's PID.
    fileprivate func waitUntilReadyForProbe() async throws {
        try await waitUntilReady("the probe printing its child's PID") {
            standardOutputSoFar.contains("probe-child-pid ")
        }
    }
}
