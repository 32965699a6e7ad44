import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Set by the signal handler, read by ``InterruptSignal/watch(cancelling:)``; a lock-free atomic is
/// one of the few things a signal handler may touch.
private let interruptReceived = Atomic<Bool>(false)

/// Turns Ctrl-C (SIGINT) and SIGTERM into cancellation of the command's task, so every `defer`
/// and scoped cleanup runs before the process exits with status 130.
enum InterruptSignal {
    /// Installs the handlers and unblocks both signals on this thread: a parent (test runners,
    /// some supervisors) may have started us with them blocked, and then they would never arrive.
    static func install() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        for number in [SIGINT, SIGTERM] {
            signal(number) { number in
                interruptReceived.store(true, ordering: .relaxed)
                // A second Ctrl-C while cleanup runs ends the process at once.
                signal(number, SIG_DFL)
            }
        }
    }

    /// True once a signal arrived.
    static var received: Bool { interruptReceived.load(ordering: .relaxed) }

    /// Cancels `task` as soon as a signal arrives, after telling `announce`; returns when it does or when
    /// this task is cancelled.
    static func watch<Success, Failure>(
        cancelling task: Task<Success, Failure>, announcing announce: @Sendable () -> Void = {}
    ) async {
        while !received {
            do {
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                return
            }
        }
        announce()
        task.cancel()
    }
}
