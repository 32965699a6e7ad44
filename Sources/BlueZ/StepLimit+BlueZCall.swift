import Transports

extension StepLimit {
    /// Runs one BlueZ call with the time left.
    ///
    /// Running out under a handed-down deadline, or starting after it passed, is the caller's timeout
    /// (``DeadlineExceeded``), so the flow that chose it names the step, instead of the adapter's shorter
    /// default ending the write as a link failure first. Running out under the adapter's own limit stays
    /// ``BlueZError/timedOut(_:)``.
    func bounding<Value>(
        isolation: isolated (any Actor)? = #isolation, _ operation: String, _ body: (Duration) async throws -> Value
    ) async throws -> Value {
        let isCallers: Bool
        if case .own = ending { isCallers = false } else { isCallers = true }
        if isCallers, hasPassed { throw DeadlineExceeded(operation) }
        do {
            return try await body(remaining)
        } catch BlueZError.timedOut(let what) {
            if isCallers { throw DeadlineExceeded(operation) }
            throw BlueZError.timedOut(what)
        } catch BlueZError.inProgress(let error) {
            if isCallers, hasPassed { throw DeadlineExceeded(operation) }
            throw BlueZError.inProgress(error)
        }
    }
}
