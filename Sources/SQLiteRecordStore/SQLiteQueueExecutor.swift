import Dispatch

/// A serial executor on a dispatch queue of its own, so SQLite's blocking calls (fsync, waits on
/// another process's lock) hold one of dispatch's threads and never one of Swift's cooperative pool.
final class SQLiteQueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
