import Foundation

/// Reading `ztprov --json` output and checking both streams at once.
extension ProcessOutcome {
    /// Both streams, for "this never appears anywhere" checks.
    var everything: String { standardOutput + standardError }

    /// The stdout lines parsed as JSON objects.
    var events: [[String: Any]] {
        standardOutput.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
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
