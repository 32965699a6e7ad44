import Foundation
import TestSupport

/// The shared objects a run of a program mapped, as the dynamic loader itself reports them
/// (`LD_DEBUG=files`): the ones loaded before `main` and the ones `dlopen` brought in later, which
/// `ldd` cannot see.
struct LoaderLog {
    /// How the program ended.
    let outcome: ProcessOutcome
    /// The file names (such as `libnm.so.0`) of every shared object the loader opened.
    let libraries: [String]
    /// The ones loaded through `dlopen` while the program ran.
    let loadedLater: [String]

    /// Runs `launch` with the loader's file log written to a fresh directory, and reads the log.
    static func run(_ launch: ProcessLaunch) async throws -> LoaderLog {
        let temporary = try TemporaryDirectory("ld")
        defer { temporary.remove() }
        let directory = temporary.url
        var logged = launch
        logged.environment.merge(["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": directory.appending(path: "ld").path]) {
            $1
        }
        let outcome = try await logged.run()
        let lines = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .flatMap { try String(contentsOf: $0, encoding: .utf8).split(separator: "\n") }
        // "  4711:\tfile=libdbus-1.so.3 [0];  needed by ./ztprov [0]" or "…;  dynamically loaded by …"
        let opened = lines.compactMap { line -> (name: String, later: Bool)? in
            guard let start = line.range(of: "file="),
                let end = line.range(of: " [", range: start.upperBound..<line.endIndex)
            else { return nil }
            return (String(line[start.upperBound..<end.lowerBound]), line.contains("dynamically loaded by"))
        }
        return LoaderLog(
            outcome: outcome, libraries: opened.map { ($0.name as NSString).lastPathComponent },
            loadedLater: opened.filter(\.later).map { ($0.name as NSString).lastPathComponent })
    }

    /// Whether a shared object whose file name starts with `prefix` was opened.
    func opened(_ prefix: String) -> Bool { libraries.contains { $0.hasPrefix(prefix) } }
}
