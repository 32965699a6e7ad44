/// How a child process ended and everything it wrote.
public struct ProcessOutcome: Sendable, CustomStringConvertible {
    /// Why the process ended.
    public enum Termination: Sendable, Hashable {
        /// It called `exit` with this status.
        case exited(Int32)
        /// A signal with this number ended it.
        case signalled(Int32)
    }

    /// Why the process ended.
    public let termination: Termination
    /// Everything it wrote to standard output, decoded as UTF-8.
    public let standardOutput: String
    /// Everything it wrote to standard error, decoded as UTF-8.
    public let standardError: String
    /// True when the runner killed it because it outlived its deadline.
    public let hitDeadline: Bool

    /// True when it exited on its own with status 0.
    public var succeeded: Bool { termination == .exited(0) && !hitDeadline }

    /// The exit status, or `nil` when a signal ended the process.
    public var exitStatus: Int32? {
        guard case .exited(let status) = termination else { return nil }
        return status
    }

    /// A summary for failure messages: how it ended, then both streams.
    public var description: String {
        let ending =
            switch termination {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "signal \(signal)"
            }
        return """
            \(ending)\(hitDeadline ? " (killed at its deadline)" : "")
            --- stdout ---
            \(standardOutput)
            --- stderr ---
            \(standardError)
            """
    }
}
