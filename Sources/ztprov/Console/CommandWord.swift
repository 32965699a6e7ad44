import ArgumentParser
import Provisioning

/// The first word of a command line names the command: checked before parsing, so a missing or
/// mistyped command is a usage error (exit 2) that names it, and `help` of an unknown command is not
/// a success.
enum CommandWord {
    /// The commands' names, as `ztprov --help` lists them.
    static var names: [String] { ZTProv.configuration.subcommands.map { $0._commandName } }

    /// The command type named `name`, if any.
    static func command(named name: String) -> (any ParsableCommand.Type)? {
        ZTProv.configuration.subcommands.first { $0._commandName == name }
    }

    /// Refuses no arguments at all, a first word that is no command, and `help` of an unknown command.
    static func check(_ arguments: [String]) throws(ProvisioningError) {
        guard let first = arguments.first else {
            throw ProvisioningError(
                .invalidOption, "No command given; the commands are \(names.joined(separator: ", ")).",
                hint: "Run `ztprov <command> --help` for one command's options, e.g. `ztprov ble --help`.")
        }
        if first.hasPrefix("-") { return }
        if first == "help" {
            guard let target = arguments.dropFirst().first, !target.hasPrefix("-") else { return }
            guard command(named: target) == nil else { return }
            throw unknown(target, position: 2)
        }
        guard command(named: first) == nil else { return }
        throw unknown(first, position: 1)
    }

    private static func unknown(_ word: String, position: Int) -> ProvisioningError {
        let close = names.first { Self.distance($0, word) <= 2 }
        return ProvisioningError(
            .invalidOption,
            "\(shown(word, position: position)) is not a command; the commands are \(names.joined(separator: ", ")).",
            hint: (close.map { "Did you mean `ztprov \($0)`? " } ?? "")
                + "Run `ztprov --help` for what each command does.")
    }

    /// The word as typed when it looks like a command (lowercase letters, digits, `-`), else its
    /// position: a stray value in first place may be a secret.
    static func shown(_ word: String, position: Int) -> String {
        let isWord =
            (1...24).contains(word.utf8.count) && word.first?.isLetter == true
            && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        return isWord ? "'\(word)'" : "Argument \(position) (not shown)"
    }

    /// The edit distance between two short words, to suggest the command meant.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
