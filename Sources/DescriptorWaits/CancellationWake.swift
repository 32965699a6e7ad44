import Glibc

/// A pipe whose read end turns readable when the task waiting on a descriptor is cancelled, so the wait's
/// `poll()` ends at that moment instead of at its next look at the task's flag.
public final class CancellationWake: Sendable {
    /// What a wait polls beside its descriptor.
    public let descriptor: Int32
    private let writeEnd: Int32

    /// Nil when the process has no descriptor left for it; waits then look at the flag in slices.
    public init?() {
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

    /// The wake of the blocking work the current task runs in ``cancellable(isolation:_:)``; nil outside it.
    @TaskLocal public static var current: CancellationWake?

    /// Runs `body`, whose descriptor waits end as soon as the task is cancelled.
    public static func cancellable<Result, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation, _ body: () throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        guard let wake = CancellationWake() else { return try body() }
        let outcome: Swift.Result<Result, Failure> = await withTaskCancellationHandler {
            // Using `isolation` makes the closure isolated to it, so the blocking body stays on the caller's
            // executor (an adapter actor's own thread) instead of moving to the shared pool.
            _ = isolation
            return $current.withValue(wake) { () -> Swift.Result<Result, Failure> in
                do throws(Failure) { return .success(try body()) } catch { return .failure(error) }
            }
        } onCancel: {
            wake.signal()
        }
        return try outcome.get()
    }

    /// Sleeps for `duration`, or less when the task running in ``cancellable(isolation:_:)`` is cancelled
    /// meanwhile (at once if it already was); a plain sleep outside it.
    public static func pause(_ duration: Duration) {
        guard let wake = current else {
            var request = timespec(
                tv_sec: Int(duration.components.seconds),
                tv_nsec: Int(duration.components.attoseconds / 1_000_000_000))
            var rest = timespec()
            while nanosleep(&request, &rest) < 0 && errno == EINTR { request = rest }
            return
        }
        var request = pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&request, 1, DescriptorReadiness.milliseconds(duration))
    }

    /// Makes the descriptor readable for good; safe from any thread.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }
}
