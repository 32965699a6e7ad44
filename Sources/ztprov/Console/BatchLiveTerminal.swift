import Provisioning
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The live batch view on a terminal: events update a ``BatchLiveView``, and a redraw loop shows it in
/// the ``LiveRegion`` at most every `interval`, reading the terminal width each time.
final class BatchLiveTerminal: Sendable {
    /// Redraws per second stay bounded whatever the event rate (a busy line reports many steps a second).
    static let interval: Duration = .milliseconds(250)

    private let view: Mutex<BatchLiveView>
    private let clock: @Sendable () -> Duration
    private let region: LiveRegion

    init(lanes: [String], clock: @escaping @Sendable () -> Duration, region: LiveRegion = .shared) {
        self.view = Mutex(BatchLiveView(lanes: lanes, startedAt: clock()))
        self.clock = clock
        self.region = region
    }

    /// Whether to draw one: both streams are terminals, and neither JSON nor `--quiet`/`--verbose` asked
    /// for a line-by-line record.
    static func wanted(by console: Console) -> Bool {
        !console.json && console.verbosity == .normal && isatty(STDOUT_FILENO) == 1 && isatty(STDERR_FILENO) == 1
    }

    func apply(_ event: BatchEvent) {
        let time = clock()
        view.withLock { $0.apply(event, at: time) }
    }

    /// Redraws until the task is cancelled, then erases the view (the summary follows as plain lines).
    func run() async {
        while !Task.isCancelled {
            let lines = view.withLock { $0.frame(at: clock(), width: LiveRegion.terminalWidth()) }
            region.show(lines)
            try? await Task.sleep(for: Self.interval)
        }
        region.end()
    }
}
