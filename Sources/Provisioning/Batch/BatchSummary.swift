/// How a batch ended, for the closing line and the JSON result.
public struct BatchSummary: Sendable, Equatable {
    /// Units provisioned in this run.
    public var provisioned = 0
    /// Units whose final attempt failed.
    public var failed = 0
    /// Units not tried because they were done before or came twice.
    public var skipped = 0
    /// Units left untouched (Ctrl-C, or every lane stopped).
    public var untouched = 0
    /// Units found held by another station at least once (each then settled here, elsewhere, or left).
    public var passedOver = 0
    /// Attempts recorded, retries included.
    public var attempts = 0
    /// Final failures by error code, for the operator's tally.
    public var failuresByCode: [String: Int] = [:]
    /// True when Ctrl-C ended the batch.
    public var interrupted = false

    public init() {}

    /// Units the input named.
    public var total: Int { provisioned + failed + skipped + untouched }
}
