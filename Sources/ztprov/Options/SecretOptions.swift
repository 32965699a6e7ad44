import ArgumentParser

/// Where one secret comes from: a file, an environment variable, or a prompt on the terminal.
///
/// There is deliberately no option that takes the secret itself: argv is visible to every user of
/// the machine through `/proc` and lands in shell history.
struct SecretOptions<Kind: SecretKind>: ParsableArguments {
    @Option(
        name: .customLong("\(Kind.optionPrefix)-file"),
        help: ArgumentHelp("Read the \(Kind.promptLabel.lowercased()) from this file (first line).", valueName: "file")
    )
    var file: String?

    @Option(
        name: .customLong("\(Kind.optionPrefix)-env"),
        help: ArgumentHelp(
            "Read the \(Kind.promptLabel.lowercased()) from this environment variable "
                + "(default \(Kind.defaultEnvironmentVariable)).",
            valueName: "var"
        )
    )
    var environmentVariable: String?

    /// True when the command line names a source, as opposed to the default variable or the prompt.
    var isGiven: Bool { file != nil || environmentVariable != nil }
}
