import Transports

/// How long one GATT operation may take: the caller's deadline when it gave one, else the adapter's own
/// limit from ``BlueZTimeouts``.
///
/// With the caller's deadline, running out is the caller's timeout (``DeadlineExceeded``), so the flow
/// that chose it names the step, instead of the adapter's shorter default ending the write as a link
/// failure first.
struct BlueZCallLimit: Sendable {
    let deadline: ContinuousClock.Instant
    /// Whether the deadline is the caller's.
    let isCallers: Bool

    /// The caller's deadline.
    static func callers(_ deadline: ContinuousClock.Instant) -> BlueZCallLimit {
        BlueZCallLimit(deadline: deadline, isCallers: true)
    }

    /// The adapter's own limit, from now.
    static func own(_ limit: Duration) -> BlueZCallLimit {
        BlueZCallLimit(deadline: .now + limit, isCallers: false)
    }

    /// What is left, at least a millisecond so a D-Bus call still gets a positive timeout.
    var remaining: Duration { max(ContinuousClock.now.duration(to: deadline), .milliseconds(1)) }

    var hasPassed: Bool { ContinuousClock.now >= deadline }

    /// Runs `body` with the time left; a timeout under the caller's deadline, or a caller's deadline that
    /// already passed, is ``DeadlineExceeded``.
    func bounding<Value>(
        isolation: isolated (any Actor)? = #isolation, _ operation: String, _ body: (Duration) async throws -> Value
    ) async throws -> Value {
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
