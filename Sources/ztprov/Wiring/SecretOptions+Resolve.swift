import Provisioning

/// Reading a secret from where ``SecretOptions`` says it is: the file, the environment, or the terminal.
extension SecretOptions {
    /// The secret from the first source that has one, or nil when none does and no terminal can be asked.
    ///
    /// Every source gives the same checks: regular file only and bounded (``RegularFile``), text and
    /// not empty (``SecretText``). Messages name the option, never the path or variable given, since
    /// a secret typed in the wrong place would otherwise be printed.
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
                    "The environment variable named by --\(Kind.optionPrefix)-env is not set.",
                    hint: "Export it, or use --\(Kind.optionPrefix)-file."
                )
            }
            return try Self.checked(SecretText.checked(value), source: "--\(Kind.optionPrefix)-env")
        }
        if let value = environment[Kind.defaultEnvironmentVariable] {
            return try Self.checked(SecretText.checked(value), source: Kind.defaultEnvironmentVariable)
        }
        return try prompt("\(Kind.promptLabel): ").map { (typed) throws(ProvisioningError) in
            try Self.checked(SecretText.checked(typed), source: "the prompt")
        }
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
        let option = "--\(Kind.optionPrefix)-file"
        switch RegularFile.contents(of: path, limit: RegularFile.secretLimit) {
        case .success(let bytes):
            return try checked(SecretText.firstLine(of: bytes), source: option)
        case .failure(let refusal):
            let reason = refusal.reason(limit: "\(RegularFile.secretLimit) bytes")
            throw ProvisioningError(
                .secretUnreadable,
                "The \(Kind.promptLabel.lowercased()) file given with \(option) \(reason).",
                hint: "Give a regular file this user may read whose first line is the secret "
                    + "(not a pipe, device or directory)."
            )
        }
    }

    private static func checked(
        _ result: Result<String, SecretText.Problem>, source: String
    ) throws(ProvisioningError) -> Secret {
        let label = Kind.promptLabel.lowercased()
        switch result {
        case .success(let text):
            let secret = Secret(text)
            try Kind.check(secret)
            return secret
        case .failure(.empty):
            throw ProvisioningError(
                .secretEmpty, "The \(label) from \(source) is empty.",
                hint: Kind.emptyHint)
        case .failure(.tooLong):
            throw ProvisioningError(
                .secretInvalid, "The \(label) from \(source) is longer than \(SecretText.maximumLength) bytes.",
                hint: "Check that the right file or variable was named.")
        case .failure(.notUTF8):
            throw ProvisioningError(
                .secretInvalid, "The \(label) from \(source) is not valid UTF-8 text.",
                hint: "Write the secret as UTF-8 text on the first line.")
        case .failure(.containsNUL):
            throw ProvisioningError(
                .secretInvalid, "The \(label) from \(source) contains a NUL byte.",
                hint: "Write the secret as UTF-8 text on the first line.")
        }
    }
}
