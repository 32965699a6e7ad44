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
    /// for '--retries <n>'`); that may be a secret typed in the wrong place, so anything quoted that
    /// is not an option's name becomes its position on the command line.
    static func withoutValues(_ message: String, arguments: [String]) -> String {
        // First every value given, wherever it appears (a value holding a quote would defeat the
        // quote pass), then whatever is still quoted.
        let values = arguments.enumerated().dropFirst().compactMap { position, argument -> (String, Int)? in
            let value =
                argument.hasPrefix("-") ? argument.split(separator: "=", maxSplits: 1).dropFirst().first : argument[...]
            guard let value, value.count >= 4, !isOptionName(value) else { return nil }
            return (String(value), position)
        }
        let scrubbed = values.sorted { $0.0.count > $1.0.count }.reduce(message) {
            $0.replacing($1.0, with: "<argument \($1.1)>")
        }
        return withoutQuotedValues(scrubbed, arguments: arguments)
    }

    private static func withoutQuotedValues(_ message: String, arguments: [String]) -> String {
        let parts = message.split(separator: "'", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return message }
        return parts.enumerated().map { index, part in
            guard index % 2 == 1, index < parts.count - 1, !isOptionName(part), !part.hasPrefix("<argument ") else {
                return String(part)
            }
            let position = arguments.dropFirst().firstIndex { $0 == part || $0.hasPrefix(part + "=") }
            return position.map { "<argument \($0)>" } ?? "<value>"
        }.joined(separator: "'")
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
