import ArgumentParser

/// `--timeout SECONDS`: a bound on the whole operation; each step keeps its own shorter default.
struct TimeoutOption: ParsableArguments {
    @Option(
        help: ArgumentHelp("Give up after this many seconds in all.", valueName: "seconds"),
        transform: DecimalSeconds.parse)
    var timeout: Double?

    func validate() throws {
        if let timeout, !(timeout > 0 && timeout <= 86_400) {
            throw ValidationError("--timeout must be a number of seconds between 0 and 86400.")
        }
    }

    /// The user's bound, or `standard` when none was given.
    func duration(default standard: Duration) -> Duration {
        timeout.map { .milliseconds(Int64($0 * 1000)) } ?? standard
    }
}
