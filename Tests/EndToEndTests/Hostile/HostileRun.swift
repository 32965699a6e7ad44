import Foundation
import Glibc
import TestSupport
import Testing

/// Runs the real `ztprov` with hostile input and checks what every hostile run must satisfy: it ends
/// on its own within a bound, by `exit` (never a signal: no trap), with the expected status and code,
/// and no secret anywhere in its output.
///
/// The bound catches a hang, not slowness: when the end-to-end suites start together, every harness's
/// Python start-up shares two cores with a debug build's, and a refusal that takes a moment alone has
/// taken more than 20 s.
///
/// The system bus is pointed at a socket that does not exist, so a run that touched the bus before
/// refusing its input shows up as exit 3 instead of the expected status.
enum HostileRun {
    static let noBus = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/ztprov-hostile-test-bus"]

    @discardableResult
    static func expect(
        _ arguments: [String], environment: [String: String] = [:], status: Int32, code: String? = nil,
        secrets: [String] = [], deadline: Duration = .seconds(60), input: Data? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ProcessOutcome {
        var launch = try ZTProvProcess.launch(arguments)
        launch.environment = noBus.merging(environment) { _, new in new }
        launch.deadline = deadline
        launch.standardInput = input
        let outcome = try await launch.run()
        let shown = "\(arguments) →\n\(outcome)"
        #expect(!outcome.hitDeadline, "hung: \(shown)", sourceLocation: sourceLocation)
        #expect(outcome.termination == .exited(status), "\(shown)", sourceLocation: sourceLocation)
        if let code {
            #expect(outcome.standardError.contains("error[\(code)]"), "\(shown)", sourceLocation: sourceLocation)
        }
        for secret in secrets where !secret.isEmpty {
            let leaked = outcome.standardOutput.contains(secret) || outcome.standardError.contains(secret)
            #expect(!leaked, "secret \(secret) printed: \(shown)", sourceLocation: sourceLocation)
        }
        return outcome
    }

    /// A secret-looking value: letters, digits and punctuation a password might hold, 12 to 24 long.
    static func secret(_ random: inout SplitMix64) -> String {
        let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!%^*_+~.")
        let length = 12 + random.below(13)
        return "Zq" + String((0..<length).map { _ in alphabet[random.below(alphabet.count)] })
    }

    /// `count` of `choices`, picked at random without repeats (all of them when there are fewer).
    static func pick<Element>(_ count: Int, of choices: [Element], _ random: inout SplitMix64) -> [Element] {
        var remaining = choices
        var picked: [Element] = []
        while picked.count < count, !remaining.isEmpty {
            picked.append(remaining.remove(at: random.below(remaining.count)))
        }
        return picked
    }

    /// A fresh directory for one test's files, removed by the caller.
    static func directory() throws -> URL {
        try TemporaryDirectory("hostile").url
    }

    /// Writes `bytes` to `name` in `directory` and returns the path.
    static func file(_ name: String, _ bytes: [UInt8], in directory: URL) throws -> String {
        let path = directory.appending(path: name).path
        try Data(bytes).write(to: URL(filePath: path))
        return path
    }

    /// A FIFO nobody writes to: reading it would block forever.
    static func fifo(in directory: URL, _ name: String = "fifo") throws -> String {
        let path = directory.appending(path: name).path
        guard mkfifo(path, 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return path
    }
}
