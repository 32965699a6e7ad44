import JSONWriting
import Provisioning
import Synchronization
import Testing

@testable import ztprov

/// Collects what a ``Console`` writes, per stream.
final class CapturedStreams: Sendable {
    private let lines = Mutex<[(Console.Stream, String)]>([])

    func console(
        json: Bool = false, verbosity: Console.Verbosity = .normal, styled: Bool = false, sharedTerminal: Bool = false,
        elapsed: @escaping @Sendable () -> Duration = { .zero }
    ) -> Console {
        Console(json: json, verbosity: verbosity, styled: styled, sharedTerminal: sharedTerminal, elapsed: elapsed) {
            stream, text in
            self.lines.withLock { $0.append((stream, text)) }
        }
    }

    var standardOutput: String { text(of: .standardOutput) }
    var standardError: String { text(of: .standardError) }

    private func text(of stream: Console.Stream) -> String {
        lines.withLock { $0.filter { $0.0 == stream }.map(\.1).joined() }
    }
}

@Suite struct ConsoleTests {
    let failure = ProvisioningError(
        .lanNoReply,
        "No Zhiting device answered the hello on the LAN within 3 s.",
        hint: "Check the device.",
        detail: "errno 0"
    )

    @Test(arguments: [
        (Duration.zero, 0), (.microseconds(999), 0), (.milliseconds(1), 1), (.milliseconds(1_234), 1_234),
        (.seconds(3_600), 3_600_000),
    ])
    func everyEventCarriesWholeMillisecondsSinceTheStart(elapsed: Duration, milliseconds: Int) {
        let streams = CapturedStreams()
        let console = streams.console(json: true, elapsed: { elapsed })
        console.event("scan-started")
        console.succeeded([])
        console.failed(failure)
        let lines = streams.standardOutput.split(separator: "\n")
        #expect(lines.count == 3)
        for line in lines {
            let stamp = #""elapsed_ms":\#(milliseconds)"#
            #expect(line.contains(stamp + ",") || line.contains(stamp + "}"), "\(line)")
        }
    }

    /// A batch's lanes send events at once; each leaves with a stamp no earlier than the one before it, even
    /// when the stamp of one event and its write are split by another event's.
    @Test func eventsFromConcurrentTasksLeaveInTheOrderOfTheirStamps() async {
        let ticks = Mutex(0)
        let captured = CapturedStreams()
        let console = captured.console(json: true) {
            .milliseconds(
                ticks.withLock { tick in
                    tick += 1
                    return tick
                })
        }
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<8 {
                group.addTask {
                    for index in 0..<200 {
                        console.event("step", [JSONField("lane", .int(lane)), JSONField("index", .int(index))])
                        await Task.yield()
                    }
                }
            }
        }
        let stamps = captured.standardOutput.split(separator: "\n").compactMap { line in
            line.split(separator: ",").first { $0.hasPrefix("\"elapsed_ms\":") }.flatMap { Int($0.dropFirst(13)) }
        }
        #expect(stamps.count == 1_600)
        let backwards = zip(stamps, stamps.dropFirst()).first { $0 > $1 }.map { "\($0.0) before \($0.1)" }
        #expect(backwards == nil, "an event left after a later-stamped one: \(backwards ?? "")")
    }

    @Test func failuresPrintCodeMessageAndHintOnStandardError() {
        let streams = CapturedStreams()
        streams.console().failed(failure)
        #expect(
            streams.standardError == """
                error[lan.no-reply]: No Zhiting device answered the hello on the LAN within 3 s.
                hint: Check the device.

                """
        )
        #expect(streams.standardOutput.isEmpty)
    }

    @Test func failuresAlsoEndTheJSONLines() {
        let streams = CapturedStreams()
        streams.console(json: true, verbosity: .quiet).failed(failure)
        #expect(
            streams.standardOutput == """
                {"event":"result","elapsed_ms":0,"ok":false,"code":"lan.no-reply","exit_status":4,\
                "message":"No Zhiting device answered the hello on the LAN within 3 s.","hint":"Check the device."}

                """
        )
        #expect(streams.standardError.hasPrefix("error[lan.no-reply]: "), "quiet still shows the error")
    }

    @Test func verboseAddsTheDetail() {
        let streams = CapturedStreams()
        streams.console(verbosity: .verbose).failed(failure)
        #expect(streams.standardError.hasSuffix("hint: Check the device.\ndetail: errno 0\n"))
    }

    @Test func progressIsPlainOffATerminalAndSilentWhenQuiet() {
        let plain = CapturedStreams()
        plain.console().progress("Found a1b2c3d4e5f6")
        plain.console().progress("Key exchange done", detail: true)
        #expect(plain.standardError == "Found a1b2c3d4e5f6\n")
        let styled = CapturedStreams()
        styled.console(styled: true).success("confirmed")
        #expect(styled.standardError.contains("\u{1B}[32m✓\u{1B}[0m confirmed"))
        let quiet = CapturedStreams()
        quiet.console(verbosity: .quiet).progress("Found a1b2c3d4e5f6")
        quiet.console(verbosity: .quiet).success("done")
        #expect(quiet.standardError.isEmpty)
    }

    @Test func humanResultAndJSONEventsNeverShareStandardOutput() {
        let human = CapturedStreams()
        human.console().output("table")
        human.console().event("device", [JSONField("id", "a1")])
        human.console().succeeded([])
        #expect(human.standardOutput == "table\n")
        let json = CapturedStreams()
        json.console(json: true).output("table")
        json.console(json: true).event("device", [JSONField("id", "a1")])
        json.console(json: true).succeeded([JSONField("count", 1)])
        #expect(
            json.standardOutput == """
                {"event":"device","elapsed_ms":0,"id":"a1"}
                {"event":"result","elapsed_ms":0,"ok":true,"code":"ok","count":1}

                """)
    }
}
