import Foundation
import Provisioning
import TestSupport
import Testing

@testable import ztprov

/// Text from a radio, a scanner or a database never acts on the terminal: on every kind of line the
/// console prints, generated control sequences come out as visible escapes, and no line is forged.
@Suite struct TerminalEscapeTests {
    /// Control sequences a hostile device name or label might carry: CSI, OSC titles and hyperlinks,
    /// C1 controls, BEL, CR, line breaks, DEL, NUL and bidirectional overrides.
    static let sequences = [
        "\u{1B}[31m", "\u{1B}[2J", "\u{1B}]0;owned\u{07}", "\u{1B}]8;;http://x.test\u{1B}\\", "\u{1B}[1A\u{1B}[K",
        "\u{9B}2J", "\u{9D}0;t\u{9C}", "\u{85}", "\u{07}", "\r", "\n", "\r\n", "\u{7F}", "\u{0}", "\u{202E}",
        "\u{2066}", "\u{200F}", "\u{2028}", "\u{8}", "\u{1B}P+q\u{1B}\\", "\u{1B}c",
    ]

    /// One to five sequences between ordinary words, as a device might name itself.
    static func hostile(_ random: inout SplitMix64) -> String {
        (0..<(1 + random.below(5))).map { _ in
            ["MH-", "Lamp ", "工厂", "x"][random.below(4)] + sequences[random.below(sequences.count)]
        }.joined() + "end"
    }

    /// What reached the terminal, less the console's own colours: no character a terminal acts on but
    /// the line breaks (and a table's tabs) the console wrote itself.
    static func expectInert(
        _ text: String, lines: Int, tabs: Bool = false, _ shown: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let plain = text.replacing(/\u{1B}\[[0-9;]*m/, with: "")
        let active = plain.unicodeScalars.filter { TerminalText.isActive($0) && $0 != "\n" && !(tabs && $0 == "\t") }
        #expect(active.isEmpty, "\(shown.debugDescription) → \(plain.debugDescription)", sourceLocation: sourceLocation)
        #expect(
            plain.unicodeScalars.count(where: { $0 == "\n" }) == lines,
            "\(shown.debugDescription) → \(plain.debugDescription)",
            sourceLocation: sourceLocation)
    }

    @Test(arguments: [false, true])
    func everyConsoleLineShowsControlSequencesAsText(styled: Bool) {
        var random = SplitMix64(seed: styled ? 0x7E57_0001 : 0x7E57_0000)
        for _ in 0..<200 {
            let text = Self.hostile(&random)
            let prints: [(Console) -> Void] = [
                { $0.progress("Found \(text)") }, { $0.progress(text, detail: true) }, { $0.log(text) },
                { $0.success("\(text) joined") }, { $0.warning(text) }, { $0.actionNeeded("Press \(text)") },
                { $0.result("\(text) provisioned") },
                { $0.failed(ProvisioningError(.lanNoReply, "No \(text).", hint: "Check \(text).", detail: text)) },
            ]
            for (index, print) in prints.enumerated() {
                let streams = CapturedStreams()
                print(streams.console(verbosity: .verbose, styled: styled))
                let lines = index == 7 ? 3 : 1
                Self.expectInert(streams.standardError + streams.standardOutput, lines: lines, text)
            }
            // A table keeps its tabs and line breaks; what a device put in a cell does not.
            let streams = CapturedStreams()
            let console = streams.console(styled: styled)
            console.output("NAME\tRSSI\n\(TerminalText.printable(text))\t-40 dBm")
            Self.expectInert(streams.standardOutput, lines: 2, tabs: true, text)
            // The closing summary repeats the results.
            let summary = CapturedStreams()
            let closing = summary.console(styled: styled)
            closing.result(text)
            closing.succeeded([])
            Self.expectInert(summary.standardError, lines: styled ? 1 : 0, text)
        }
    }

    /// Lines of an export keep their endings, `\r\n` included, and nothing else that acts.
    @Test func exportLinesKeepTheirEndingsOnly() {
        var random = SplitMix64(seed: 0x7E57_C5F0)
        for _ in 0..<200 {
            let rows = (0..<(1 + random.below(4))).map { _ in "a,\"\(Self.hostile(&random))\",b" }
            let shown = TerminalText.lines(rows.map { $0 + "\r\n" }.joined())
            let active = shown.unicodeScalars.enumerated().filter { index, scalar in
                TerminalText.isActive(scalar) && scalar != "\n"
                    && !(scalar == "\r" && shown.unicodeScalars.dropFirst(index + 1).first == "\n")
            }
            #expect(active.isEmpty, "\(shown.debugDescription)")
            let endings = shown.unicodeScalars.count { $0 == "\n" }
            #expect(endings >= rows.count, "\(shown.debugDescription)")
        }
    }
}
