import ArgumentParser

/// How much a command says and in which form; shared by every subcommand.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON Lines on stdout (one event per step and a final result); human text goes to stderr.")
    var json = false

    @Flag(
        name: .shortAndLong,
        help:
            "Also print debug detail: D-Bus calls to BlueZ and NetworkManager, HTTP exchanges and UDP datagrams (sizes and timings, never secrets)."
    )
    var verbose = false

    @Flag(name: .shortAndLong, help: "Print only errors and the final result.")
    var quiet = false

    func validate() throws {
        if verbose && quiet {
            throw ValidationError("--verbose and --quiet cannot be used together.")
        }
    }
}
