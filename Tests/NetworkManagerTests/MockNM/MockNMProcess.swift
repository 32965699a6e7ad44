import Foundation

/// Starting, waiting for and stopping the helper processes of the mock-bus tests.
enum MockNMProcess {
    struct StartupTimeout: Error, CustomStringConvertible {
        let what: String
        var description: String { "timed out waiting until \(what)" }
    }

    static func start(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> Process
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs a short command to its end and returns its standard output, or nil when it fails.
    static func output(_ executable: String, _ arguments: [String]) -> String? {
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Kills the process outright: children started from a Swift concurrency thread inherit its
    /// blocked signal mask, so SIGTERM may never be delivered.
    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Polls `condition` every 10 ms, without blocking a concurrency thread; the generous deadline
    /// covers Python start-up on a loaded two-core machine.
    static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw StartupTimeout(what: what) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// Where the mock-bus tests' tools are, and whether they are all there.
enum MockNMTools {
    static let dbusDaemon = "/usr/bin/dbus-daemon"
    static let dbusSend = "/usr/bin/dbus-send"
    static let python = "/usr/bin/python3"

    /// B's NetworkManager mock template, in the repository's harness (ZTPROV_NM_TEMPLATE overrides).
    static let nmTemplate: String = {
        if let path = ProcessInfo.processInfo.environment["ZTPROV_NM_TEMPLATE"] { return path }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return repository.appendingPathComponent("Tests/Harness/ztharness/nm_softap_template.py").path
    }()

    static let hasBus =
        FileManager.default.isExecutableFile(atPath: dbusDaemon)
        && FileManager.default.isExecutableFile(atPath: dbusSend)

    static let hasNMMock: Bool =
        hasBus && FileManager.default.fileExists(atPath: nmTemplate)
        && MockNMProcess.output(python, ["-c", "import dbusmock"]) != nil
}
