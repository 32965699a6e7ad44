/// The caller's deadline came before the port finished: the caller's limit ran out, not the port's.
///
/// Ports that take a deadline throw this instead of their own timeout error, so the flow that chose
/// the deadline names the step that ran out rather than a link failure.
public struct DeadlineExceeded: Error, Sendable, Equatable {
    /// What was still running, such as `GATT write`.
    public let operation: String

    public init(_ operation: String) {
        self.operation = operation
    }
}
