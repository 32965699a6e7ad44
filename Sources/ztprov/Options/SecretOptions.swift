import ArgumentParser
import Provisioning

#if canImport(Glibc)
    import Glibc
#endif

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

    /// The secret from the first source that has one, or nil when none does and no terminal can be asked.
    func resolve(
        environment: [String: String],
        prompt: (String) -> String? = SecretPrompt.ask
    ) throws(ProvisioningError) -> Secret? {
        if let file {
            return try Self.readFirstLine(of: file)
        }
        if let environmentVariable {
            guard let value = environment[environmentVariable] else {
                throw ProvisioningError(
                    .secretMissing,
                    "The environment variable \(environmentVariable) is not set.",
                    hint: "Export \(environmentVariable) or use --\(Kind.optionPrefix)-file."
                )
            }
            return Secret(value)
        }
        if let value = environment[Kind.defaultEnvironmentVariable] {
            return Secret(value)
        }
        return prompt("\(Kind.promptLabel): ").map(Secret.init)
    }

    /// Like ``resolve(environment:prompt:)`` but a missing secret is a usage error naming every way to give it.
    func require(
        environment: [String: String],
        prompt: (String) -> String? = SecretPrompt.ask
    ) throws(ProvisioningError) -> Secret {
        guard let secret = try resolve(environment: environment, prompt: prompt) else {
            throw ProvisioningError(
                .secretMissing,
                "No \(Kind.promptLabel.lowercased()) was given.",
                hint: "Use --\(Kind.optionPrefix)-file FILE, --\(Kind.optionPrefix)-env VAR, "
                    + "set \(Kind.defaultEnvironmentVariable), or run on a terminal to be asked."
            )
        }
        return secret
    }

    private static func readFirstLine(of path: String) throws(ProvisioningError) -> Secret {
        guard let handle = fopen(path, "r") else {
            let reason = String(cString: strerror(errno))
            throw ProvisioningError(
                .secretUnreadable,
                "Cannot read the \(Kind.promptLabel.lowercased()) file \(path): \(reason).",
                hint: "Check the path and that this user may read it."
            )
        }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        while case let byte = fgetc(handle), byte != EOF, byte != 0x0A {
            bytes.append(UInt8(truncatingIfNeeded: byte))
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        return Secret(String(decoding: bytes, as: UTF8.self))
    }
}
