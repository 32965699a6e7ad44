internal import CLibNM
import Synchronization

/// A serial executor whose jobs run on one dedicated thread iterating its own GLib main context.
///
/// libnm objects belong to the main context they were created on and emit their signals there, so
/// an actor that owns them runs on this executor: every libnm call, signal and async callback then
/// happens on the same thread, and the compiler enforces it. The context is the thread's default,
/// so libnm objects created by the actor attach to it without being told.
final class GMainContextExecutor: SerialExecutor, @unchecked Sendable {
    // Safety of `@unchecked Sendable`: `context` and `loop` are only handed to GLib calls documented
    // as thread-safe (attaching sources, ownership checks); the job queue sits behind a mutex.
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let queue = Mutex(PendingJobs())

    private struct PendingJobs: ~Copyable {
        var jobs: [UnownedJob] = []
        var drainScheduled = false
    }

    /// Starts the thread; `name` shows up in debuggers and `top -H`.
    init(name: String) {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        let thread = Unmanaged.passRetained(LoopThread(context: context, loop: loop)).toOpaque()
        g_thread_unref(g_thread_new(name, runLoopThread, thread))
    }

    deinit {
        // Quitting from inside the loop also works when the thread has not yet entered it.
        attachOneShot(priority: CLibNM_PRIORITY_DEFAULT, quitLoop, UnsafeMutableRawPointer(g_main_loop_ref(loop))) {
            g_main_loop_unref(OpaquePointer($0))
        }
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unownedJob = UnownedJob(job)
        let mustSchedule = queue.withLock { pending in
            pending.jobs.append(unownedJob)
            guard !pending.drainScheduled else { return false }
            pending.drainScheduled = true
            return true
        }
        if mustSchedule {
            let retainedSelf = Unmanaged.passRetained(self).toOpaque()
            attachOneShot(priority: CLibNM_PRIORITY_DEFAULT, drainJobs, retainedSelf) {
                Unmanaged<GMainContextExecutor>.fromOpaque($0!).release()
            }
        }
    }

    func checkIsolated() {
        precondition(isCurrentThread, "not on the libnm thread")
    }

    /// Whether the caller runs on this executor's thread, inside its loop.
    var isCurrentThread: Bool {
        g_main_context_is_owner(context) != 0
    }

    /// Runs every job queued so far, in order; jobs queued meanwhile schedule the next drain.
    fileprivate func runPendingJobs() {
        let jobs = queue.withLock { pending in
            let jobs = pending.jobs
            pending = PendingJobs()
            return jobs
        }
        for job in jobs {
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }

    /// Attaches a source that calls `callback(data)` once on the loop thread, then `release(data)`.
    private func attachOneShot(
        priority: Int32,
        _ callback: GSourceFunc,
        _ data: UnsafeMutableRawPointer?,
        release: GDestroyNotify
    ) {
        let source = g_idle_source_new()
        g_source_set_priority(source, priority)
        g_source_set_callback(source, callback, data, release)
        g_source_attach(source, context)
        g_source_unref(source)
    }
}

/// What the loop thread owns: its own references to the context and loop, so the executor may go first.
private final class LoopThread {
    let context: OpaquePointer
    let loop: OpaquePointer

    init(context: OpaquePointer, loop: OpaquePointer) {
        self.context = g_main_context_ref(context)
        self.loop = g_main_loop_ref(loop)
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }
}

private let runLoopThread: GThreadFunc = { data in
    let thread = Unmanaged<LoopThread>.fromOpaque(data!).takeRetainedValue()
    g_main_context_push_thread_default(thread.context)
    g_main_loop_run(thread.loop)
    // libnm finishes releasing a client through events on its context; let those still pending run.
    while g_main_context_iteration(thread.context, 0) != 0 {}
    g_main_context_pop_thread_default(thread.context)
    return nil
}

private let drainJobs: GSourceFunc = { data in
    Unmanaged<GMainContextExecutor>.fromOpaque(data!).takeUnretainedValue().runPendingJobs()
    return CLibNM_SOURCE_REMOVE
}

private let quitLoop: GSourceFunc = { data in
    g_main_loop_quit(OpaquePointer(data))
    return CLibNM_SOURCE_REMOVE
}
