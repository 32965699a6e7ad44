/// Runs `work` until `deadline`; past it the work is cancelled and ``DeadlineExceeded`` thrown,
/// naming `operation`.
///
/// The one way flows bound a wait whose port does not take a deadline itself: ports bound their own
/// waits too, but only the flow knows the step's limit and the run's deadline, and an in-memory or
/// misbehaving port must not be able to hang a run. A value the work produces as the timer fires is
/// returned rather than dropped, so a reply taken off a queue at that instant is never lost.
/// Cancelling the calling task cancels both and surfaces as `CancellationError`.
public func withDeadline<Value: Sendable>(
    _ deadline: ContinuousClock.Instant, _ operation: String,
    _ work: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: DeadlineRace<Value>.self) { group in
        group.addTask { .finished(try await work()) }
        group.addTask {
            try await Task.sleep(until: deadline, clock: .continuous)
            return .expired
        }
        defer { group.cancelAll() }
        if case .finished(let value) = try await group.next() { return value }
        group.cancelAll()
        while let late = try? await group.next() {
            if case .finished(let value) = late { return value }
        }
        throw DeadlineExceeded(operation)
    }
}

private enum DeadlineRace<Value: Sendable>: Sendable {
    case finished(Value)
    case expired
}
