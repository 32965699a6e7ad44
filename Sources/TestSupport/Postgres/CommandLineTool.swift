import Foundation

/// Runs a server tool to completion, failing with its output when it exits non-zero.
///
/// The output goes to a file, not a pipe: `pg_ctl start` leaves the server running with the tool's
/// output descriptors, and a pipe would then never see its end.
enum CommandLineTool {
    static func run(_ path: String, _ arguments: [String]) async throws {
        let log = FileManager.default.temporaryDirectory.appending(path: "ztprov-tool-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        var launch = ProcessLaunch(path, arguments)
        launch.outputFile = log
        launch.deadline = .seconds(180)
        let outcome = try await launch.run()
        guard outcome.succeeded else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw PostgresTestServerError(
                message: "\(path) \(arguments.joined(separator: " ")) ended with \(outcome.termination): \(text)")
        }
    }
}
