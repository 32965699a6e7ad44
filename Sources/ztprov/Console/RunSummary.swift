import Synchronization

/// What a command achieved, gathered while it runs, so the final TTY line can say it in one place.
///
/// A class because every copy of a ``Console`` must add to the same record.
final class RunSummary: Sendable {
    private let results = Mutex<[String]>([])
    private let next = Mutex<[String]>([])

    /// Notes one achievement (a device provisioned, a hand-off confirmed).
    func record(_ result: String) {
        results.withLock { $0.append(result) }
    }

    /// Notes what the person can do next.
    func recordNext(_ step: String) {
        next.withLock { $0.append(step) }
    }

    /// The next steps, in the order noted.
    var nextSteps: [String] { next.withLock { $0 } }

    /// `Done in 3.4s: A; B`, or `Done in 3.4s` when nothing was recorded.
    func line(after elapsed: Duration) -> String {
        let achieved = results.withLock { $0 }
        let total = "Done in " + ElapsedTime(elapsed).seconds
        return achieved.isEmpty ? total : total + ": " + achieved.joined(separator: "; ")
    }
}
