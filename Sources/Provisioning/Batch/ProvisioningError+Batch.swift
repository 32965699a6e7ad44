extension ProvisioningError {
    /// Line `line` of the batch input cannot be used, and why.
    public static func batchBadInput(line: Int, _ reason: String) -> ProvisioningError {
        ProvisioningError(
            .batchBadInput, "Batch input line \(line) cannot be used: \(reason).",
            hint: "Fix the line; see `ztprov batch --help` for the accepted line shapes.")
    }

    /// The verdict of a batch whose every unit was tried but some failed.
    public static func batchIncomplete(failed: Int, of total: Int) -> ProvisioningError {
        ProvisioningError(
            .batchIncomplete, "\(failed) of \(total) unit\(total == 1 ? "" : "s") could not be provisioned.",
            hint: "Run `ztprov report --final-only` for the reasons; rerunning the batch retries only those units.")
    }
}
