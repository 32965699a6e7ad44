import Foundation
import Records
import TestSupport
import Testing

/// `ztprov batch` on a terminal (a pseudo-terminal driven from Python): the lanes are redrawn in place,
/// within the terminal's width also after it narrows, and erased before the closing lines.
@Suite(.serialized, .requiresHarnessHost)
struct BatchLiveViewEndToEndTests {
    struct Terminal: Decodable {
        let status: Int
        let transcript: String
        let resizedAt: Int?

        enum CodingKeys: String, CodingKey {
            case status, transcript
            case resizedAt = "resized_at"
        }
    }

    static let erase = "\u{1B}[J"

    @Test func theLanesAreRedrawnInPlaceWithinTheTerminalWidth() async throws {
        let directory = try BatchEndToEndTests.workspace(units: 8)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withHarness(scenario: BatchEndToEndTests.scenario(units: 8)) { h in
            let batch = try BatchEndToEndTests.batch(h, directory)
            let arguments = batch.arguments.filter { $0 != "--json" && $0 != "--verbose" }
            var launch = ProcessLaunch(
                "/usr/bin/python3",
                [
                    RepositoryLayout.harnessDirectory.appending(path: "run_in_pty.py").path, "--cols", "100",
                    "--resize-after", ": provisioned as ", "--resize-cols", "40", "--", batch.executable,
                ] + arguments)
            launch.environment = batch.environment
            launch.networkNamespace = batch.networkNamespace
            launch.deadline = .seconds(150)
            let outcome = try await launch.run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            let terminal = try JSONDecoder().decode(Terminal.self, from: Data(outcome.standardOutput.utf8))
            #expect(terminal.status == 0, "\(terminal.transcript)")
            let scalars = Array(terminal.transcript.unicodeScalars)
            let resizedAt = try #require(terminal.resizedAt, "no totals line was drawn")

            // Lines the view drew (the region's lines end in \n and carry no colour codes).
            func viewLines(_ range: Range<Int>) -> [String] {
                let text = String(String.UnicodeScalarView(scalars[range]))
                    .replacing("\r\n", with: "\n").replacing(/\u{1B}\[[0-9]*[A-Za-z]/, with: "\n")
                return text.split(separator: "\n").map(String.init).filter {
                    $0.contains(" done · ") || $0.hasPrefix("hci")
                }
            }
            let before = viewLines(0..<resizedAt)
            // Lines already made when the terminal narrowed may still be drawn until the next redraw reads the
            // width; the last frame, and every later one, fits.
            let after = Array(viewLines(resizedAt..<scalars.count).suffix(5))
            #expect(before.contains { $0.hasPrefix("hci") && $0.contains("24:0A:C4:00:00:") }, "\(before)")
            #expect(before.allSatisfy { $0.unicodeScalars.count <= 99 }, "\(before)")
            #expect(after.count == 5 && after.last?.contains(" done ·") == true, "\(after)")
            #expect(after.allSatisfy { $0.unicodeScalars.count <= 39 }, "\(after)")
            let redraws = terminal.transcript.components(separatedBy: Self.erase).count - 1
            #expect(redraws >= 3, "\(redraws) redraws")

            // The view is erased at the end: the last erase is followed by the closing lines only.
            let tail = try #require(terminal.transcript.components(separatedBy: Self.erase).last)
            #expect(tail.contains("Batch done: 8 provisioned"), "\(tail)")
            #expect(!tail.contains(" done · "), "\(tail)")
            #expect(!terminal.transcript.contains(BatchEndToEndTests.wifiPassword))
            let records = try await BatchEndToEndTests.records(directory)
            #expect(records.count == 8 && records.allSatisfy(\.succeeded))
        }
    }
}
