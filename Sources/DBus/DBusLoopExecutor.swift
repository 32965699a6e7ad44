import Glibc
import Synchronization

/// One thread that runs a libdbus connection's poll loop and the Swift jobs of the actors that own it.
///
/// libdbus objects are touched from this thread only: `DBusConnection` (and any actor sharing the connection)
/// returns this executor as its `unownedExecutor`, so the compiler routes every isolated call here, and the
/// C callbacks (filters, pending-call notifications) run here too, during `poll` handling, where
/// `assumeIsolated` holds. Besides jobs the loop runs timers (call deadlines that must fire even in a cancelled
/// task) and file-descriptor sources (the bus socket). Loop state outside the queue is touched only on the loop
/// thread, which is why this type alone is `@unchecked Sendable`.
public final class DBusLoopExecutor: SerialExecutor, @unchecked Sendable {
    /// A file descriptor the loop polls, with the callbacks that say what to wait for and handle readiness.
    public struct Source {
        let fd: Int32
        /// Called before each poll; returns the `poll(2)` events to wait for.
        let prepare: () -> Int16
        /// Called with the `revents` that poll reported; returns false to stop watching the descriptor.
        let handle: (Int16) -> Bool

        /// Watches `fd`: `prepare` says which events to wait for, `handle` gets what poll reported.
        public init(fd: Int32, prepare: @escaping () -> Int16, handle: @escaping (Int16) -> Bool) {
            self.fd = fd
            self.prepare = prepare
            self.handle = handle
        }
    }

    private enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    private struct Inbox {
        var work: [Work] = []
        var stopping = false
        var thread: pthread_t?
    }

    private let inbox = Mutex(Inbox())
    /// A pipe whose read end is in every poll, so a push from another thread interrupts the wait.
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private var sources: [Int: Source] = [:]
    private var timers: [Int: (deadline: ContinuousClock.Instant, action: () -> Void)] = [:]
    private var nextHandle = 0

    /// Starts the loop thread.
    public init() {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0, "pipe failed: errno \(errno)")
        for end in ends {
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (wakeReader, wakeWriter) = (ends[0], ends[1])
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { argument in
                Unmanaged<DBusLoopExecutor>.fromOpaque(argument!).takeRetainedValue().run()
                return nil
            }, Unmanaged.passRetained(self).toOpaque())
        precondition(started == 0, "pthread_create failed: \(started)")
        pthread_detach(thread)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        push(.job(UnownedJob(job)))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func checkIsolated() {
        precondition(isOnLoopThread, "libdbus touched off its loop thread")
    }

    /// Whether the caller runs on the loop thread.
    public var isOnLoopThread: Bool {
        inbox.withLock { inbox in inbox.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Runs `work` on the loop thread soon, in order with jobs; usable from any thread (cancellation handlers,
    /// stream terminations).
    public func execute(_ work: @escaping @Sendable () -> Void) {
        push(.closure(work))
    }

    /// Lets the thread finish the work already queued and exit.
    func stop() {
        inbox.withLock { $0.stopping = true }
        wake()
    }

    /// Adds a file-descriptor source; loop thread only.
    public func addSource(_ source: Source) -> Int {
        checkIsolated()
        nextHandle += 1
        sources[nextHandle] = source
        return nextHandle
    }

    /// Removes a source; loop thread only.
    public func removeSource(_ handle: Int) {
        checkIsolated()
        sources[handle] = nil
    }

    /// Runs `action` on the loop thread at `deadline` unless cancelled first; loop thread only.
    public func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping () -> Void) -> Int {
        checkIsolated()
        nextHandle += 1
        timers[nextHandle] = (deadline, action)
        return nextHandle
    }

    /// Forgets a timer that has not fired; loop thread only.
    public func cancelTimer(_ handle: Int) {
        checkIsolated()
        timers[handle] = nil
    }

    private func push(_ work: Work) {
        inbox.withLock { $0.work.append(work) }
        wake()
    }

    private func wake() {
        // A full pipe already guarantees a wake-up, so a failed write needs no handling.
        var one: UInt8 = 1
        _ = write(wakeWriter, &one, 1)
    }

    private func run() {
        inbox.withLock { $0.thread = pthread_self() }
        while true {
            let (work, stopping) = inbox.withLock { inbox in
                defer { inbox.work.removeAll() }
                return (inbox.work, inbox.stopping)
            }
            for item in work {
                switch item {
                case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
                case .closure(let closure): closure()
                }
            }
            fireDueTimers()
            if stopping && work.isEmpty { break }
            pollOnce(timeout: work.isEmpty ? millisecondsToNextTimer() : 0)
        }
        sources.removeAll()
        timers.removeAll()
        close(wakeReader)
        close(wakeWriter)
    }

    private func fireDueTimers() {
        let now = ContinuousClock.now
        let due = timers.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
        for (handle, timer) in due where timers.removeValue(forKey: handle) != nil {
            timer.action()
        }
    }

    private func millisecondsToNextTimer() -> Int32 {
        guard let next = timers.values.map(\.deadline).min() else { return -1 }
        let remaining = ContinuousClock.now.duration(to: next)
        guard remaining > .zero else { return 0 }
        let milliseconds =
            remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: milliseconds)
    }

    private func pollOnce(timeout: Int32) {
        var handles: [Int] = []
        var fds = [pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0)]
        for handle in sources.keys.sorted() {
            // prepare() may dispatch callbacks that remove sources, so each one is looked up again.
            guard let source = sources[handle] else { continue }
            let events = source.prepare()
            handles.append(handle)
            fds.append(pollfd(fd: source.fd, events: events, revents: 0))
        }
        guard poll(&fds, nfds_t(fds.count), timeout) > 0 else { return }
        if fds[0].revents != 0 {
            var drained = [UInt8](repeating: 0, count: 256)
            while read(wakeReader, &drained, drained.count) == drained.count {}
        }
        for (index, handle) in handles.enumerated() where fds[index + 1].revents != 0 {
            // Copied out first: a handler may add or remove sources.
            guard let source = sources[handle] else { continue }
            if !source.handle(fds[index + 1].revents) { sources[handle] = nil }
        }
    }
}
