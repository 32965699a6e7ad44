import Logging
import Provisioning
import Synchronization

/// Collects what the BluFi flow reports and logs, so tests can check the order of steps and that no
/// secret shows up in any of it.
final class BluFiRecorder: Sendable {
    private let events = Mutex<[BluFiProgress]>([])
    private let lines = Mutex<[String]>([])
    private let onEvent: @Sendable (BluFiProgress) -> Void

    /// A recorder that also hands every event to `onEvent` (to cancel at a given step, say).
    init(onEvent: @escaping @Sendable (BluFiProgress) -> Void = { _ in }) {
        self.onEvent = onEvent
    }

    var progress: [BluFiProgress] { events.withLock { $0 } }
    var logs: [String] { lines.withLock { $0 } }

    var sink: BluFiProgressSink {
        { event in
            self.events.withLock { $0.append(event) }
            self.onEvent(event)
        }
    }

    /// A trace-level logger whose every line, metadata included, lands in ``logs``.
    func logger() -> Logger {
        var logger = Logger(label: "ble-test") { _ in BluFiRecordingLogHandler(recorder: self) }
        logger.logLevel = .trace
        return logger
    }

    /// Every progress line, log line and (if given) the error's text, for grepping for secrets.
    func everything(with error: ProvisioningError? = nil) -> String {
        var text = progress.map(\.description) + progress.map { "\($0)" } + logs
        if let error { text += [error.description, error.hint, error.detail ?? "", "\(error)"] }
        return text.joined(separator: "\n")
    }

    fileprivate func record(_ line: String) {
        lines.withLock { $0.append(line) }
    }
}

private struct BluFiRecordingLogHandler: LogHandler {
    let recorder: BluFiRecorder
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        recorder.record("\(event.level) \(event.message) \(event.metadata ?? [:])")
    }
}
