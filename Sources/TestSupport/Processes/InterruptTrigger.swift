import Dispatch
import Glibc

/// When `ProcessLaunch.run(interrupting:)` sends SIGINT, as a user pressing Ctrl-C would.
public enum InterruptTrigger: Sendable {
    /// This long after the start.
    case after(Duration)
    /// As soon as standard error contains this text (a progress line, say), so the interrupt lands in
    /// a known phase instead of at a guessed time.
    case whenStandardErrorContains(String)

    /// Arms the interrupt of `process` from threads outside the test process's shared pool, so a busy test
    /// process cannot deliver it late: a timer on a dispatch queue, or the thread that reads standard error.
    /// A process that ended first is not signalled.
    public func arm(_ process: RunningProcess) {
        switch self {
        case .after(let delay):
            let (seconds, attoseconds) = delay.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                process.send(signal: SIGINT)
            }
        case .whenStandardErrorContains(let text):
            process.send(signal: SIGINT, whenStandardErrorContains: text)
        }
    }
}
