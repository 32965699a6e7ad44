/// Codes of `ztprov batch`: its input, and the verdict on a batch that ran.
extension ErrorCode {
    /// A batch input line names no usable unit.
    public static let batchBadInput = ErrorCode("batch.bad-input", .usage)
    /// The batch ran to its end, but some units were not provisioned; the records say which and why.
    public static let batchIncomplete = ErrorCode("batch.incomplete", .batchIncomplete)

    /// The batch codes, joined into ``catalogue``.
    static let batchCatalogue: [ErrorCode] = [.batchBadInput, .batchIncomplete]
}

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
