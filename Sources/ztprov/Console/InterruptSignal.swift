import Provisioning
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The write end of ``InterruptSignal``'s pipe, for the handler: `write` is async-signal-safe.
private let wakeWriteEnd = Atomic<Int32>(-1)
/// The first signal caught (0 before any), which decides the exit status; a lock-free store is
/// async-signal-safe.
private let firstSignal = Atomic<Int32>(0)
/// Which of stdout (bit 0) and stderr (bit 1) were terminals when the handlers went in: after a
/// hang-up a terminal no longer says so (its `ioctl`s fail with EIO), so it is asked beforehand.
private let terminalStreams = Atomic<Int32>(0)

/// Turns Ctrl-C (SIGINT), SIGTERM and SIGHUP into cancellation of the command's task, so every
/// `defer` and scoped cleanup runs before the process exits with status 130, 143 or 129.
///
/// The handler writes one byte to a pipe that nobody reads, so from the first signal on its read end
/// stays readable: whoever waits for Ctrl-C sleeps in `poll` on it, beside any other input it waits for.
///
/// SIGHUP is what a closed terminal or a dropped SSH session sends: the cleanup matters most then
/// (the host may have moved to a device's hotspot), so later hang-ups are ignored rather than
/// ending the process, and nothing more is written to a terminal that is gone.
enum InterruptSignal {
    static let caught = [SIGINT, SIGTERM, SIGHUP]

    /// The pipe's ends, made once; -1 where the process has no descriptor left for it.
    private static let wakePipe: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return (-1, -1) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            // The handler must never block on a full pipe.
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        return (ends[0], ends[1])
    }()

    /// Installs the handlers and unblocks both signals on this thread: a parent (test runners,
    /// some supervisors) may have started us with them blocked, and then they would never arrive.
    /// Without a pipe the default action stays: Ctrl-C then ends the process at once.
    static func install() {
        terminalStreams.store(
            (isatty(STDOUT_FILENO) == 1 ? 1 : 0) | (isatty(STDERR_FILENO) == 1 ? 2 : 0), ordering: .relaxed)
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in caught { sigaddset(&signals, number) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        guard wakePipe.write >= 0 else { return }
        wakeWriteEnd.store(wakePipe.write, ordering: .relaxed)
        for number in caught {
            signal(number) { number in
                _ = firstSignal.compareExchange(expected: 0, desired: number, ordering: .relaxed)
                // A second Ctrl-C or SIGTERM while cleanup runs ends the process at once. Reset first: once
                // the pipe wakes the cleanup and its message shows, a second signal must no longer reach a
                // handler. A hang-up comes again on its own (the shell passes one on, the kernel sends one).
                signal(number, number == SIGHUP ? SIG_IGN : SIG_DFL)
                var byte: UInt8 = 1
                _ = write(wakeWriteEnd.load(ordering: .relaxed), &byte, 1)
            }
        }
    }

    /// True once a signal arrived: the pipe then has its byte.
    static var received: Bool {
        var descriptor = pollfd(fd: arrival, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) > 0
    }

    /// The error the command ends with when a signal arrived: the first signal names it.
    static var interruption: ProvisioningError? {
        guard received else { return nil }
        switch firstSignal.load(ordering: .relaxed) {
        case SIGHUP: return .hungUp
        case SIGTERM: return .terminated
        default: return .interruptedByUser
        }
    }

    /// Whether `descriptor` (stdout or stderr) is a terminal that hung up: nothing more goes to it.
    static func isGoneTerminal(_ descriptor: Int32) -> Bool {
        guard firstSignal.load(ordering: .relaxed) == SIGHUP else { return false }
        let bit: Int32 = descriptor == STDOUT_FILENO ? 1 : descriptor == STDERR_FILENO ? 2 : 0
        return terminalStreams.load(ordering: .relaxed) & bit != 0
    }

    /// Sleeps until `descriptor` has input (or its end); false when a signal arrived first, or `poll` failed.
    static func waitForInput(on descriptor: Int32) -> Bool {
        var descriptors = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: arrival, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready < 0, errno == EINTR { continue }
            return ready > 0 && descriptors[1].revents == 0
        }
    }

    /// Treats a terminal that hung up as SIGHUP: the kernel sends it to the terminal's session leader and
    /// foreground group, but a read may see the hung-up terminal first (or the process is in neither).
    /// Sends it to the process and returns once the handler ran.
    static func hangUp() {
        guard arrival >= 0 else { return }
        kill(getpid(), SIGHUP)
        _ = waitForInput(on: -1)
    }

    /// A descriptor that turns readable once a signal arrived (and stays so), for a `poll` that also
    /// waits on other input; -1 when signals are not caught.
    static var arrival: Int32 { wakePipe.read }

    /// Runs `action` once, on a thread of its own, as soon as a signal arrives (at once if one already
    /// did). The thread sleeps in `poll` until then; the process ends with the command, so it is never
    /// woken otherwise.
    static func whenReceived(_ action: @escaping @Sendable () -> Void) {
        guard arrival >= 0 else { return }
        let context = Unmanaged.passRetained(InterruptAction(action)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                let action = Unmanaged<InterruptAction>.fromOpaque(context!).takeRetainedValue()
                var descriptor = pollfd(fd: InterruptSignal.arrival, events: Int16(POLLIN), revents: 0)
                var ready = poll(&descriptor, 1, -1)
                while ready < 0, errno == EINTR { ready = poll(&descriptor, 1, -1) }
                if ready > 0 { action.run() }
                return nil
            }, context)
        guard status == 0 else {
            // Nobody could act on a caught signal: let Ctrl-C end the process at once instead.
            Unmanaged<InterruptAction>.fromOpaque(context).release()
            for number in caught { signal(number, SIG_DFL) }
            return
        }
        pthread_detach(thread)
    }
}

/// What ``InterruptSignal/whenReceived(_:)`` runs, boxed to cross `pthread_create`.
private final class InterruptAction: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}
