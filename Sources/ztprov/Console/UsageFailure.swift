import ArgumentParser
import FoundationEssentials
import Provisioning

/// A command line ArgumentParser refused, reported like every other failure.
struct UsageFailure {
    let message: String
    let arguments: [String]

    /// `error[usage.invalid-option]` with ArgumentParser's message and a pointer to `--help`; the
    /// JSON result too when `--json` was among the arguments.
    func report() {
        let text = Self.withoutValues(
            message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message, arguments: arguments)
        let subcommand = Self.subcommand(in: arguments).map { " \($0)" } ?? ""
        let error = ProvisioningError(
            .invalidOption,
            text.split(separator: "\n").first.map(String.init) ?? text,
            hint: "Run `ztprov\(subcommand) --help` for the options."
        )
        Self.report(error, arguments: arguments)
    }

    /// The subcommand the arguments name, for the hint; only a real one, since the first word that is not
    /// an option may be a stray value (a secret typed in the wrong place).
    private static func subcommand(in arguments: [String]) -> String? {
        let names = Set(ZTProv.configuration.subcommands.map { $0._commandName })
        return arguments.dropFirst().first { !$0.hasPrefix("-") }.flatMap { names.contains($0) ? $0 : nil }
    }

    /// ArgumentParser quotes what it refused (`Unexpected argument 'hunter2'`, `The value 'x' is invalid
    /// for '--retries <count>'`). A value that may be a secret typed in the wrong place (a stray word,
    /// a value glued to or following an unknown option, a secret file's or variable's name) becomes its
    /// position; the user's other words (a command, a known option's value) and ArgumentParser's own
    /// (the accepted choices) stay as written.
    static func withoutValues(_ message: String, arguments: [String]) -> String {
        let hidden = hiddenValues(in: arguments)
        // First every hidden value wherever it appears (a value holding a quote would defeat the quote
        // pass), then whatever quoted text is a piece of one.
        let scrubbed = hidden.filter { $0.value.count >= 4 }.sorted { $0.value.count > $1.value.count }
            .reduce(message) { $0.replacing($1.value, with: placeholder($1.position)) }
        let parts = scrubbed.split(separator: "'", omittingEmptySubsequences: false)
        var text = String(parts[0])
        var index = 1
        while index < parts.count {
            let part = parts[index]
            guard index + 1 < parts.count else {
                text += "'" + part
                break
            }
            let secret = hidden.first { !part.isEmpty && ($0.value.contains(part) || part.contains($0.value)) }
            if part.hasPrefix("(argument ") {
                text += part
            } else if !isOptionName(part), let secret {
                text += placeholder(secret.position)
            } else {
                text += "'\(part)'"
            }
            text += parts[index + 1]
            index += 2
        }
        return text
    }

    private static func placeholder(_ position: Int) -> String {
        "(argument \(position), not shown)"
    }

    /// The arguments that may hold a secret, with their positions on the command line.
    static func hiddenValues(in arguments: [String]) -> [(value: String, position: Int)] {
        var hidden: [(value: String, position: Int)] = []
        let words = Array(arguments.dropFirst())
        let command = words.first.flatMap(CommandWord.command(named:))
        let options = command.map(optionNames(of:)) ?? [:]
        var index = command != nil || words.first == "help" ? 1 : 0
        while index < words.count {
            let word = words[index]
            let position = index + 1
            index += 1
            if word == "--" {
                hidden += words[index...].enumerated().map { ($1, index + $0 + 1) }
                break
            }
            guard word.hasPrefix("-"), word.count > 1 else {
                if !(position == 1 && CommandWord.command(named: word) != nil) { hidden.append((word, position)) }
                continue
            }
            let parts = word.split(separator: "=", maxSplits: 1)
            let name = String(parts[0])
            let isSecretSource = name.hasSuffix("-file") || name.hasSuffix("-env")
            guard let takesValue = options[name] else {
                // An unknown or glued option: the rest of it, and a value after it, may be a secret;
                // a mistyped option name (`--retires`) is the user's word.
                if parts.count == 2 || !isPlainWord(name[...]) { hidden.append((word, position)) }
                if parts.count == 2 { hidden.append((String(parts[1]), position)) }
                if !word.hasPrefix("--") { hidden.append((String(word.dropFirst(2)), position)) }
                if index < words.count, !words[index].hasPrefix("-") {
                    hidden.append((words[index], position + 1))
                    index += 1
                }
                continue
            }
            if parts.count == 2, isSecretSource || !takesValue || !isPlainWord(parts[1]) {
                hidden.append((String(parts[1]), position))
            }
            if parts.count == 1, takesValue, index < words.count {
                if isSecretSource || !isPlainWord(words[index][...]) { hidden.append((words[index], position + 1)) }
                index += 1
            }
        }
        return hidden.filter { !$0.value.isEmpty }
    }

    /// A value that reads as the user's own word for an option (`xml`, `0x10`, `hci-1`, `+5`): short, no
    /// capital letters, no symbols beyond `- . : + _ /`. Anything else given even to a known option
    /// may be a secret typed in the wrong place.
    private static func isPlainWord(_ text: Substring) -> Bool {
        text.utf8.count <= 24
            && text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || "-.:+_/".unicodeScalars.contains($0)
            }
    }

    /// Every option of `command` (its help lists them), and whether it takes a value.
    private static func optionNames(of command: any ParsableCommand.Type) -> [String: Bool] {
        let help = ZTProv.helpMessage(for: command, includeHidden: true, columns: 10_000)
        var names: [String: Bool] = ["-h": false, "-v": false, "-q": false]
        for match in help.matches(of: /(--?[a-z0-9][a-z0-9-]*)( <[^>]+>)?/) {
            names[String(match.output.1)] = (names[String(match.output.1)] ?? false) || match.output.2 != nil
        }
        return names
    }

    /// `--name`, `-n` or `--name <value>`, as ArgumentParser spells an option in its messages.
    private static func isOptionName(_ text: Substring) -> Bool {
        let name = text.prefix { $0 != " " }
        let rest = text.dropFirst(name.count)
        let body = name.hasPrefix("--") ? name.dropFirst(2) : name.hasPrefix("-") ? name.dropFirst() : ""
        let isName =
            !body.isEmpty && body.first!.isLetter
            && body.allSatisfy {
                $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") || (name.count == 2 && $0.isLetter)
            }
        let isPlaceholder =
            rest.isEmpty || (rest.hasPrefix(" <") && rest.hasSuffix(">") && !rest.dropFirst(2).contains(" "))
        return isName && isPlaceholder
    }

    /// A failure found before parsing (a station profile that cannot be used), in the same form.
    static func report(_ error: ProvisioningError, arguments: [String]) {
        Console(json: arguments.contains("--json"), verbosity: .normal, styled: false, write: Self.standardError)
            .failed(error)
    }

    private static let standardError: @Sendable (Console.Stream, String) -> Void = { stream, text in
        Console.write(text, to: stream)
    }
}
