import Foundation
import TestSupport
import Testing

/// Reading `ztprov --json` output and checking both streams at once.
extension ProcessOutcome {
    /// Both streams, for "this never appears anywhere" checks.
    var everything: String { standardOutput + standardError }

    /// The stdout lines parsed as JSON objects; every event of every command run here must carry
    /// `elapsed_ms`, whole milliseconds that never go back.
    var events: [[String: Any]] {
        let events = standardOutput.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
        Self.expectElapsedTimes(events)
        return events
    }

    static func expectElapsedTimes(_ events: [[String: Any]], sourceLocation: SourceLocation = #_sourceLocation) {
        var previous = 0
        for event in events {
            guard let elapsed = event["elapsed_ms"] as? Int, elapsed >= previous else {
                Issue.record("no elapsed_ms, or one that went back, in \(event)", sourceLocation: sourceLocation)
                return
            }
            previous = elapsed
        }
    }

    /// The final `{"event":"result",…}` line.
    var result: [String: Any]? { events.last { $0["event"] as? String == "result" } }
}

/// A file in the temporary directory holding `contents`, for `--access-token-file` and friends.
func temporaryFile(_ contents: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ztprov-e2e-\(UUID().uuidString)")
    try Data(contents.utf8).write(to: url)
    return url
}
