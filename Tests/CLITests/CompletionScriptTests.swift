import ArgumentParser
import Testing

@testable import ztprov

/// The completion scripts the README installs come from the command definitions, so every subcommand
/// and its options are completed without a hand-kept list.
@Suite struct CompletionScriptTests {
    /// Each subcommand with an option only it (or few others) defines, to show the script reaches
    /// into each subcommand's definition, not just the root's list.
    static let subcommands: [(name: String, option: String)] = [
        ("scan", "duration"), ("ble", "scan-timeout"), ("softap", "wifi-interface"), ("discover", "listen"),
        ("handoff", "device-id"), ("doctor", "for"), ("demo", "blufi-security"), ("batch", "adapters"),
        ("report", "final-only"),
    ]

    @Test func theExpectedSubcommandsAreTheDefinedOnes() {
        let defined = ZTProv.configuration.subcommands.map { $0._commandName }
        #expect(defined == Self.subcommands.map(\.name))
    }

    @Test(arguments: [CompletionShell.bash, .zsh, .fish])
    func scriptsNameEverySubcommandAndItsOptions(shell: CompletionShell) {
        let script = ZTProv.completionScript(for: shell)
        for (name, option) in Self.subcommands {
            #expect(mentions(script, word: name), "\(shell) script lacks the subcommand \(name)")
            #expect(
                script.contains(Self.spelling(of: option, in: shell)), "\(shell) script lacks \(name)'s --\(option)")
        }
    }

    /// How the shell's script declares a long option; fish names it without the dashes.
    private static func spelling(of option: String, in shell: CompletionShell) -> String {
        shell == .fish ? "-l '\(option)'" : "--\(option)"
    }

    /// `word` as a whole word: `ble` must not count because of `enable`, nor `for` because of `format`.
    private func mentions(_ script: String, word: String) -> Bool {
        script.ranges(of: word).contains { range in
            let before = range.lowerBound == script.startIndex ? nil : script[script.index(before: range.lowerBound)]
            let after = range.upperBound == script.endIndex ? nil : script[range.upperBound]
            return !isWordCharacter(before) && !isWordCharacter(after)
        }
    }

    private func isWordCharacter(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "_"
    }
}
