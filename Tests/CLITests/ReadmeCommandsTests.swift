import Foundation
import TestSupport
import Testing

/// The README's Quick start gives a newcomer two commands; CI must run the same two, the first before
/// anything else, or CI could pass on a machine where the newcomer's first command fails.
@Suite struct ReadmeCommandsTests {
    @Test func ciStartsWithTheReadmesFirstCommandAndRunsItsSecond() throws {
        let readme = try String(contentsOf: RepositoryLayout.root.appending(path: "README.md"), encoding: .utf8)
        let ci = try String(contentsOf: RepositoryLayout.root.appending(path: ".ci/run"), encoding: .utf8)
        #expect(drift(readme: readme, ci: ci) == [])
    }

    /// The check can fail: each way the two can part is caught.
    @Test(arguments: [
        // The README's first command changed, CI's not.
        (quickStart("swift run ztprov demo --json", "Tests/run-tests"), ci("swift run ztprov demo", "Tests/run-tests")),
        // The README's second command changed, CI's not.
        (
            quickStart("swift run ztprov demo", "Tests/run-tests --quick"),
            ci("swift run ztprov demo", "Tests/run-tests")
        ),
        // CI builds before it runs the first command.
        (
            quickStart("swift run ztprov demo", "Tests/run-tests"),
            ci("swift build --build-tests", "swift run ztprov demo", "Tests/run-tests")
        ),
        // The Quick start lost its block.
        ("## Quick start\n\nRun the demo.\n", ci("swift run ztprov demo", "Tests/run-tests")),
    ])
    func aDriftIsCaught(readme: String, ci: String) {
        #expect(drift(readme: readme, ci: ci) != [])
    }

    private func drift(readme: String, ci: String) -> [String] {
        guard let quickStart = QuickStart(readme: readme) else { return ["no two-command Quick start block"] }
        let commands = CIScript(text: ci).commands
        var problems: [String] = []
        if commands.first != quickStart.install {
            problems.append("CI starts with \(commands.first ?? "nothing"), not \(quickStart.install)")
        }
        if !commands.contains(quickStart.test) { problems.append("CI does not run \(quickStart.test)") }
        return problems
    }

    private static func quickStart(_ install: String, _ test: String) -> String {
        "## Quick start\n\n```sh\n\(install)   # 1. install and demo\n\(test)   # 2. test\n```\n"
    }

    private static func ci(_ commands: String...) -> String {
        "set -euo pipefail\nstep \"the README's command 1\"\n" + commands.joined(separator: "\n") + "\n"
    }
}

/// The two commands of the README's Quick start, without their trailing comments.
private struct QuickStart {
    let install: String
    let test: String

    init?(readme: String) {
        guard let section = readme.components(separatedBy: "## Quick start").dropFirst().first,
            let block = section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```")
                .first
        else { return nil }
        let commands = block.split(separator: "\n").map { line in
            let code = line.range(of: " #").map { line[..<$0.lowerBound] } ?? line[...]
            return code.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        guard commands.count == 2 else { return nil }
        install = commands[0]
        test = commands[1]
    }
}

/// The commands a CI script runs, in order: its lines less comments, blank lines and its own set-up
/// (shell options, the working directory, exported settings, step titles and the step function).
private struct CIScript {
    let commands: [String]

    init(text: String) {
        let setUp = ["set ", "cd ", "export ", "step ", "step()", "printf ", "#"]
        commands = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { line in !line.isEmpty && !setUp.contains { line.hasPrefix($0) } }
    }
}
