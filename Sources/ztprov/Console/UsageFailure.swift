import Provisioning

/// A command line ArgumentParser refused, reported like every other failure.
struct UsageFailure {
    let message: String
    let arguments: [String]

    /// `error[usage.invalid-option]` with ArgumentParser's message and a pointer to `--help`; the
    /// JSON result too when `--json` was among the arguments.
    func report() {
        let text = message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
        let subcommand = arguments.dropFirst().first { !$0.hasPrefix("-") }.map { " \($0)" } ?? ""
        let error = ProvisioningError(
            .invalidOption,
            text.split(separator: "\n").first.map(String.init) ?? text,
            hint: "Run `ztprov\(subcommand) --help` for the options."
        )
        Self.report(error, arguments: arguments)
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
