import Glibc

/// A pipe whose read end turns readable when the task waiting on a socket is cancelled, so the wait's
/// `poll()` ends at that moment instead of at its next look at the task's flag.
final class CancellationWake: Sendable {
    /// What a wait polls beside its socket.
    let descriptor: Int32
    private let writeEnd: Int32

    /// Nil when the process has no descriptor left for it; waits then look at the flag in slices.
    init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        (descriptor, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// The wake of the socket work the current task runs in ``cancellable(_:)``; nil outside it.
    @TaskLocal static var current: CancellationWake?

    /// Runs `body`, whose socket waits end as soon as the task is cancelled.
    static func cancellable<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: () throws -> Result
    ) async rethrows -> Result {
        guard let wake = CancellationWake() else { return try body() }
        return try await withTaskCancellationHandler {
            // Using `isolation` makes the closure isolated to it, so the blocking body stays on the caller's
            // executor (a socket actor's own thread) instead of moving to the shared pool.
            _ = isolation
            return try $current.withValue(wake) { try body() }
        } onCancel: {
            wake.signal()
        }
    }

    /// Makes the descriptor readable for good; safe from any thread.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
