import Logging
import Provisioning
import Synchronization

/// Collects what a flow reports and logs, so tests can check order and absence of secrets.
final class Recorder: Sendable {
    private let progressEvents = Mutex<[LANProgress]>([])
    private let logLines = Mutex<[String]>([])

    var progress: [LANProgress] { progressEvents.withLock { $0 } }
    var logs: [String] { logLines.withLock { $0 } }

    var sink: LANProgressSink {
        { event in self.progressEvents.withLock { $0.append(event) } }
    }

    /// A logger at debug level whose every line lands in ``logs``.
    func logger() -> Logger {
        var logger = Logger(label: "test") { _ in RecordingLogHandler(lines: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func record(_ line: String) {
        logLines.withLock { $0.append(line) }
    }
}

private struct RecordingLogHandler: LogHandler {
    let lines: Recorder
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.record("\(event.level) \(event.message)")
    }
}
