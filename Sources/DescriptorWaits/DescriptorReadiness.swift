import Glibc

/// The one way the adapters wait on a descriptor (a socket, libpq's connection): `poll()` until it is
/// ready, the deadline passes or the task is cancelled. Callers run on a thread of their own, never the
/// cooperative pool.
public enum DescriptorReadiness {
    /// How a wait ended.
    public enum Outcome: Equatable, Sendable {
        /// Ready for the events, or in error or hung up: the caller's next call says which.
        case ready
        case deadlinePassed
        case cancelled
        case pollFailed(errno: Int32)
    }

    /// How long one `poll()` may sleep before the task's cancellation flag is looked at again, for a wait
    /// outside ``CancellationWake/cancellable(isolation:_:)`` (inside, cancellation wakes the wait at once).
    public static let cancellationCheckInterval = Duration.milliseconds(50)

    /// Blocks until `descriptor` is ready for `events` (`POLLIN`, `POLLOUT`) or the wait ends otherwise.
    ///
    /// With `noticingCancellation` false the wait ignores the task's cancellation: for the grace a caller
    /// gives work it lets finish after a cancellation (a statement whose record is being written).
    public static func wait(
        for events: Int16, on descriptor: Int32, until deadline: ContinuousClock.Instant,
        noticingCancellation: Bool = true
    ) -> Outcome {
        let wake = noticingCancellation ? CancellationWake.current : nil
        while true {
            if noticingCancellation, Task.isCancelled { return .cancelled }
            let remaining = deadline - .now
            guard remaining > .zero else { return .deadlinePassed }
            var requests = [pollfd(fd: descriptor, events: events, revents: 0)]
            if let wake { requests.append(pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)) }
            let slice = noticingCancellation && wake == nil ? min(remaining, cancellationCheckInterval) : remaining
            let result = poll(&requests, nfds_t(requests.count), milliseconds(slice))
            if result > 0, requests[0].revents != 0 { return .ready }
            if result > 0 { return .cancelled }
            if result < 0 && errno != EINTR { return .pollFailed(errno: errno) }
        }
    }

    /// Whole milliseconds, rounded up so a short remainder does not turn into a busy loop.
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let partial = (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: seconds * 1000 + partial)
    }
}
