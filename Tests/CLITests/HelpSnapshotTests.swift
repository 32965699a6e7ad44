import ArgumentParser
import Foundation
import Testing

@testable import ztprov

/// Every command's `--help`, exactly as users and the man page see it at 100 columns: a change to an
/// option's name, default or help text shows up here as a diff to review.
///
/// After an intended change, rewrite the snapshots with
/// `ZTPROV_UPDATE_HELP_SNAPSHOTS=1 swift test --filter HelpSnapshotTests` and review the diff in git.
@Suite struct HelpSnapshotTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("HelpSnapshots")

    static let commands: [(name: String, type: any ParsableCommand.Type)] =
        [("ztprov", ZTProv.self)]
        + ZTProv.configuration.subcommands.map { ($0._commandName, $0) }

    @Test func everyCommandHasASnapshot() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory.path).sorted()
        #expect(files == Self.commands.map { "\($0.name).txt" }.sorted())
    }

    @Test(arguments: commands.map(\.name))
    func helpMatchesItsSnapshot(_ name: String) throws {
        let command = try #require(Self.commands.first { $0.name == name }?.type)
        let help = ZTProv.helpMessage(for: command, columns: 100) + "\n"
        let file = Self.directory.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["ZTPROV_UPDATE_HELP_SNAPSHOTS"] == "1" {
            try help.write(to: file, atomically: true, encoding: .utf8)
        }
        let snapshot = try String(contentsOf: file, encoding: .utf8)
        #expect(help == snapshot, "`ztprov \(name) --help` changed; see the test's doc comment")
    }
}
