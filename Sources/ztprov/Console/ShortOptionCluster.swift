import Provisioning

/// `-h`, `-v` and `-q` are the only short options, and none takes a value, so an argument such as
/// `-pHunter2` or `-hunter2` is a mistyped option carrying a value, perhaps a secret. ArgumentParser
/// would read it as a cluster of flags: it shows the help and exits 0 for the `h` in `-hunter2`, and
/// names the first unknown letter of the value otherwise. Such an argument is refused whole, by position.
enum ShortOptionCluster {
    static let flags: Set<Character> = ["h", "v", "q"]

    /// Refuses a single-dash argument of more than one letter that is not made of the short flags only;
    /// arguments after `--` are values.
    static func check(_ arguments: [String]) throws(ProvisioningError) {
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return }
            guard argument.hasPrefix("-"), !argument.hasPrefix("--"), argument.count > 2 else { continue }
            if argument.dropFirst().allSatisfy(flags.contains) { continue }
            throw ProvisioningError(
                .invalidOption,
                "Argument \(index + 1) is not an option: the short options are -h, -v and -q, and they take no value.",
                hint: "Spell the option out (`--name VALUE`); `ztprov --help` lists them. "
                    + "Secrets go in a file or an environment variable, never on the command line.")
        }
    }
}
