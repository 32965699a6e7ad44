/// A step's limit ran out before the device answered.
struct ProtocommDeadlineExceeded: Error {}

/// Runs `work` until `deadline`; past it the work is cancelled and ``ProtocommDeadlineExceeded`` thrown.
///
/// Ports bound their own waits too, but only the flow knows the step's limit and the run's
/// deadline, and an in-memory or misbehaving port must not be able to hang a run.
func withProtocommDeadline<Value: Sendable>(
    _ deadline: ContinuousClock.Instant,
    _ work: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: DeadlineRace<Value>.self) { group in
        group.addTask { .finished(try await work()) }
        group.addTask {
            try await Task.sleep(until: deadline, clock: .continuous)
            return .expired
        }
        defer { group.cancelAll() }
        guard case .finished(let value) = try await group.next() else { throw ProtocommDeadlineExceeded() }
        return value
    }
}

private enum DeadlineRace<Value: Sendable>: Sendable {
    case finished(Value)
    case expired
}
