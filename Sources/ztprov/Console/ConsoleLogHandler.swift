import Logging

/// swift-log's handler for every logger in the process (the flows' and the adapters'): lines go to
/// stderr through the ``Console``, so with `-v` they interleave with the progress lines and carry
/// the same elapsed-time column on a terminal.
struct ConsoleLogHandler: LogHandler {
    let console: Console
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let context =
            merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " ")
        console.log("\(event.level): [\(label)] \(event.message)\(context)")
    }
}
