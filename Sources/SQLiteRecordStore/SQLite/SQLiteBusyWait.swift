import CSQLite
import DescriptorWaits

#if canImport(Glibc)
    import Glibc
#endif

/// How long a statement waits for another connection's lock: up to `limit`, but no more than
/// ``afterCancellation`` once the task is cancelled, so Ctrl-C is answered while a writer holds the file.
///
/// SQLite calls the handler on the thread running the statement, inside the store's task, which is
/// why `Task.isCancelled` there sees the command's cancellation. SQLite has no lock notification, so the
/// lock is tried every ``step``; the pause between tries ends the moment the task is cancelled (inside
/// ``CancellationWake/cancellable(isolation:_:)``), and the grace after it is counted in whole steps.
final class SQLiteBusyWait {
    static let step: Duration = .milliseconds(10)
    static let afterCancellation: Duration = .milliseconds(500)

    private let limitSteps: Int
    private var stepsAtCancellation: Int?

    init(limit: Duration) {
        limitSteps = Int(limit / Self.step)
    }

    /// True to try the lock again after a short sleep, false to give up with `SQLITE_BUSY`.
    func shouldRetry(afterAttempts attempts: Int) -> Bool {
        if attempts == 0 { stepsAtCancellation = nil }
        if Task.isCancelled, stepsAtCancellation == nil { stepsAtCancellation = attempts }
        if let cancelled = stepsAtCancellation, attempts - cancelled >= Int(Self.afterCancellation / Self.step) {
            return false
        }
        guard attempts < limitSteps else { return false }
        if stepsAtCancellation == nil {
            CancellationWake.pause(Self.step)
        } else {
            usleep(useconds_t(Self.step / .microseconds(1)))
        }
        return true
    }

    static let handler: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { context, attempts in
        guard let context else { return 0 }
        let wait = Unmanaged<SQLiteBusyWait>.fromOpaque(context).takeUnretainedValue()
        return wait.shouldRetry(afterAttempts: Int(attempts)) ? 1 : 0
    }
}
