import Dispatch

/// A serial executor on a dispatch queue of its own, for the store adapters: their C libraries block
/// (SQLite's fsync and lock waits, libpq's connects and server round trips), and on this queue they hold
/// one of dispatch's threads, never one of Swift's few cooperative ones.
public final class RecordStoreQueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
