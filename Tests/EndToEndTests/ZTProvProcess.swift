import Foundation
import Synchronization

/// Runs the built `ztprov` binary the way a user or script would, capturing both streams.
struct ZTProvProcess {
    struct Outcome: Sendable {
        var status: Int32
        var standardOutput: String
        var standardError: String

        /// Both streams, for "this never appears anywhere" checks.
        var everything: String { standardOutput + standardError }

        /// The stdout lines parsed as JSON objects (with `--json`).
        var events: [[String: Any]] {
            standardOutput.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            }
        }

        /// The final `{"event":"result",…}` line.
        var result: [String: Any]? { events.last { $0["event"] as? String == "result" } }
    }

    /// The package root, from this file's place in `Tests/EndToEndTests/`.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The `ztprov` next to the test bundle (`.build/<triple>/debug/`), else `.build/debug/`.
    static let binary: URL = {
        let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let besideBundle = bundleDirectory.appendingPathComponent("ztprov")
        if FileManager.default.isExecutableFile(atPath: besideBundle.path) { return besideBundle }
        return packageRoot.appendingPathComponent(".build/debug/ztprov")
    }()

    /// Runs `ztprov arguments…`; with `interruptOnceOutputContains`, sends SIGINT as soon as stdout
    /// shows that text (so the signal never lands before the command is under way).
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        interruptOnceOutputContains marker: String? = nil
    ) async throws -> Outcome {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let collected = CollectedOutput(output)
        async let standardError = readToEnd(error)
        if let marker {
            while !collected.text.contains(marker), process.isRunning {
                try await Task.sleep(for: .milliseconds(20))
            }
            kill(process.processIdentifier, SIGINT)
        }
        let outData = await collected.whole()
        let errData = await standardError
        await onOwnThread { process.waitUntilExit() }
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self)
        )
    }

    /// Stdout read as it arrives, on a thread of its own.
    private final class CollectedOutput: Sendable {
        private final class Buffer: Sendable {
            let data = Mutex(Data())
        }

        private let buffer = Buffer()
        private let finished: Task<Data, Never>

        init(_ pipe: Pipe) {
            let buffer = self.buffer
            finished = Task {
                await onOwnThread {
                    while case let chunk = pipe.fileHandleForReading.availableData, !chunk.isEmpty {
                        buffer.data.withLock { $0.append(chunk) }
                    }
                    return buffer.data.withLock { $0 }
                }
            }
        }

        var text: String { buffer.data.withLock { String(decoding: $0, as: UTF8.self) } }

        func whole() async -> Data { await finished.value }
    }

    private static func readToEnd(_ pipe: Pipe) async -> Data {
        await onOwnThread { (try? pipe.fileHandleForReading.readToEnd()) ?? Data() }
    }

    /// Runs blocking `work` on a thread of its own.
    ///
    /// On Linux the concurrency pool and Dispatch's global queues share a few threads; blocking them
    /// stalls the devices that tests serve in this same process for seconds.
    private static func onOwnThread<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}

/// A file in a fresh temporary directory holding `contents`, for `--access-token-file` and friends.
func temporaryFile(_ contents: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("ztprov-e2e-\(UUID().uuidString)")
    try Data(contents.utf8).write(to: url)
    return url
}
