import Logging
import Provisioning
import Synchronization

/// Collects what a flow reports and logs, so tests can check the order of steps and that no secret
/// shows up in any of it; one recorder serves every flow, whatever its progress type.
final class FlowRecorder<Event: Sendable>: Sendable {
    private let events = Mutex<[Event]>([])
    private let lines = Mutex<[String]>([])
    private let onEvent: @Sendable (Event) -> Void

    /// A recorder that also hands every event to `onEvent` (to cancel at a given step, say).
    init(onEvent: @escaping @Sendable (Event) -> Void = { _ in }) {
        self.onEvent = onEvent
    }

    var progress: [Event] { events.withLock { $0 } }
    var logs: [String] { lines.withLock { $0 } }

    var sink: @Sendable (Event) -> Void {
        { event in
            self.events.withLock { $0.append(event) }
            self.onEvent(event)
        }
    }

    /// A trace-level logger whose every line, metadata included, lands in ``logs``.
    func logger() -> Logger {
        var logger = Logger(label: "test") { _ in RecordingLogHandler(record: self.record) }
        logger.logLevel = .trace
        return logger
    }

    private func record(_ line: String) {
        lines.withLock { $0.append(line) }
    }
}

/// The recorder of the LAN flows.
typealias Recorder = FlowRecorder<LANProgress>

private struct RecordingLogHandler: LogHandler {
    let record: @Sendable (String) -> Void
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        record("\(event.level) \(event.message) \(event.metadata ?? [:])")
    }
}
