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

/// Runs `work` until `deadline`; past it the work is cancelled and ``DeadlineExceeded`` is thrown.
///
/// For ports without a deadline of their own, so every port honours the caller's.
public func withDeadline<Value: Sendable>(
    _ deadline: ContinuousClock.Instant, _ operation: String,
    _ work: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await work() }
        group.addTask {
            try await Task.sleep(until: deadline, clock: .continuous)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw DeadlineExceeded(operation) }
        return value
    }
}
