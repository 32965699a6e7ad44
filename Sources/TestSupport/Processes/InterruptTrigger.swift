import Glibc

/// When `ProcessLaunch.run(interrupting:)` sends SIGINT, as a user pressing Ctrl-C would.
public enum InterruptTrigger: Sendable {
    /// This long after the start.
    case after(Duration)
    /// As soon as standard error contains this text (a progress line, say), so the interrupt lands in
    /// a known phase instead of at a guessed time.
    case whenStandardErrorContains(String)

    /// Waits for the moment, then interrupts `process`; does nothing when cancelled first. Text on
    /// standard error is watched by the thread that reads it, so the interrupt lands at once.
    public func interrupt(_ process: RunningProcess) async {
        switch self {
        case .after(let delay):
            guard (try? await Task.sleep(for: delay)) != nil else { return }
            process.send(signal: SIGINT)
        case .whenStandardErrorContains(let text):
            process.send(signal: SIGINT, whenStandardErrorContains: text)
        }
    }
}
