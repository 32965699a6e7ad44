import Glibc

/// A serial executor with a thread of its own, so an actor can wait in `poll()` without holding one
/// of the few threads of Swift's cooperative pool.
///
/// The thread sleeps on a condition variable while no job is queued and ends after `shutdown()` once
/// the queue is empty; it keeps the executor alive until then.
final class BlockingSocketExecutor: SerialExecutor, @unchecked Sendable {
    // Guarded by `mutex`; the only state shared between the enqueuing threads and ours.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let jobAvailable = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var jobs: [UnownedJob] = []
    private var stopping = false

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(jobAvailable, nil)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<BlockingSocketExecutor>.fromOpaque(context!).takeRetainedValue().runJobs()
                return nil
            }, context)
        // Without a thread no actor on this executor could ever run; there is nothing sensible to continue with.
        precondition(status == 0, "pthread_create failed with \(status)")
        pthread_detach(thread)
    }

    deinit {
        pthread_cond_destroy(jobAvailable)
        pthread_mutex_destroy(mutex)
        jobAvailable.deallocate()
        mutex.deallocate()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(mutex)
        jobs.append(job)
        pthread_cond_signal(jobAvailable)
        pthread_mutex_unlock(mutex)
    }

    /// Lets the thread end once the queued jobs have run.
    func shutdown() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_signal(jobAvailable)
        pthread_mutex_unlock(mutex)
    }

    private func runJobs() {
        while let job = nextJob() {
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }

    private func nextJob() -> UnownedJob? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while jobs.isEmpty && !stopping {
            pthread_cond_wait(jobAvailable, mutex)
        }
        return jobs.isEmpty ? nil : jobs.removeFirst()
    }
}
