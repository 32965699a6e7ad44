import Synchronization
import Testing

@testable import ztprov

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let now = Mutex<Duration>(.zero)

    func advance(to instant: Duration) { now.withLock { $0 = instant } }

    var elapsed: @Sendable () -> Duration { { self.now.withLock { $0 } } }
}

@Suite struct TerminalOutputTests {
    /// The escape sequences removed, so the tests read the text a person sees.
    private func visible(_ text: String) -> String {
        text.replacing(/\u{1B}\[[0-9;]*m/, with: "")
    }

    @Test func terminalLinesCarryTheTimeSinceTheCommandStarted() {
        let streams = CapturedStreams()
        let clock = ManualClock()
        let console = streams.console(styled: true, elapsed: clock.elapsed)
        clock.advance(to: .milliseconds(1_250))
        console.progress("Session ready, security V1")
        clock.advance(to: .milliseconds(12_300))
        console.success("The device joined HomeNet")
        clock.advance(to: .seconds(125))
        console.warning("The device could not be reset")
        #expect(
            visible(streams.standardError) == """
                [ 1.2s] · Session ready, security V1
                [12.3s] ✓ The device joined HomeNet
                [125.0s] warning: The device could not be reset

                """)
    }

    @Test func theClosingSummarySaysWhatWasAchievedAndTheTotalTime() {
        let streams = CapturedStreams()
        let clock = ManualClock()
        let console = streams.console(styled: true, elapsed: clock.elapsed)
        console.result("MH-1A2B as a1b2c3d4e5f6 provisioned")
        console.result("a1b2c3d4e5f6 at 192.168.1.20 now uses gz.sc.zhitingtech.com:54321")
        clock.advance(to: .milliseconds(3_470))
        console.succeeded([])
        #expect(
            streams.standardOutput == """
                MH-1A2B as a1b2c3d4e5f6 provisioned
                a1b2c3d4e5f6 at 192.168.1.20 now uses gz.sc.zhitingtech.com:54321

                """)
        #expect(
            visible(streams.standardError)
                == "[ 3.4s] Done in 3.4s: MH-1A2B as a1b2c3d4e5f6 provisioned; "
                + "a1b2c3d4e5f6 at 192.168.1.20 now uses gz.sc.zhitingtech.com:54321\n")
    }

    /// On one terminal for both streams the result is said once, in the closing summary, and what is left to
    /// do follows it; where stdout is not the terminal it still gets the result, and the next steps go to stderr.
    @Test func aRunOnATerminalEndsWithOneSummaryThenItsNextSteps() {
        let next = "Hand it over to the cloud: ztprov handoff --device-id a1b2c3d4e5f6 --area-id AREA"
        let terminal = CapturedStreams()
        let console = terminal.console(styled: true, sharedTerminal: true, elapsed: { .milliseconds(5_400) })
        console.result("MH-D4E5F6 as a1b2c3d4e5f6 provisioned: connected to HomeNet")
        console.next(next)
        console.succeeded([])
        #expect(terminal.standardOutput.isEmpty)
        #expect(
            visible(terminal.standardError)
                == "[ 5.4s] Done in 5.4s: MH-D4E5F6 as a1b2c3d4e5f6 provisioned: connected to HomeNet\nnext: \(next)\n")

        let piped = CapturedStreams()
        let plain = piped.console()
        plain.result("MH-D4E5F6 provisioned")
        plain.next("Continue the device's setup at http://192.168.1.20/\u{1B}[2J")
        plain.succeeded([])
        #expect(piped.standardOutput == "MH-D4E5F6 provisioned\n")
        #expect(piped.standardError == "next: Continue the device's setup at http://192.168.1.20/\\x1B[2J\n")
    }

    @Test func aCommandWithoutResultsStillSaysHowLongItTook() {
        let streams = CapturedStreams()
        streams.console(styled: true, elapsed: { .seconds(2) }).succeeded([])
        #expect(visible(streams.standardError) == "[ 2.0s] Done in 2.0s\n")
    }

    @Test func withoutATerminalLinesArePlainAndThereIsNoSummary() {
        let streams = CapturedStreams()
        let console = streams.console(elapsed: { .seconds(7) })
        console.progress("Session ready, security V1")
        console.success("The device joined HomeNet")
        console.warning("The device could not be reset")
        console.result("MH-1A2B provisioned")
        console.succeeded([])
        #expect(
            streams.standardError == """
                Session ready, security V1
                The device joined HomeNet
                warning: The device could not be reset

                """)
        #expect(streams.standardOutput == "MH-1A2B provisioned\n")
    }

    @Test func quietAndJSONKeepTheirStreamsClean() {
        let quiet = CapturedStreams()
        quiet.console(verbosity: .quiet, styled: true).succeeded([])
        #expect(quiet.standardError.isEmpty)
        let json = CapturedStreams()
        let console = json.console(json: true, styled: true, elapsed: { .seconds(1) })
        console.result("MH-1A2B provisioned")
        console.succeeded([])
        #expect(json.standardOutput == #"{"event":"result","elapsed_ms":1000,"ok":true,"code":"ok"}"# + "\n")
        #expect(visible(json.standardError) == "[ 1.0s] Done in 1.0s: MH-1A2B provisioned\n")
    }

    @Test(arguments: [
        (Duration.zero, "[ 0.0s]"), (.milliseconds(99), "[ 0.0s]"), (.milliseconds(100), "[ 0.1s]"),
        (.milliseconds(9_999), "[ 9.9s]"), (.seconds(99), "[99.0s]"), (.seconds(-1), "[ 0.0s]"),
    ])
    func elapsedTimeIsShownInTenthsRoundedDown(duration: Duration, column: String) {
        #expect(ElapsedTime(duration).column == column)
    }
}
