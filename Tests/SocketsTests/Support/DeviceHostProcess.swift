import Foundation
import Glibc
import TestSupport
import Transports

/// The harness's emulated device (`Tests/Harness/ztharness/device_host.py`) on 127.0.0.1, run with
/// Debian's Python for as long as one test needs it.
final class DeviceHostProcess: @unchecked Sendable {
    static let harness = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Harness")
    static let python = "/usr/bin/python3"

    /// Whether the device host and the interpreter it needs are present in this checkout.
    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: harness.appendingPathComponent("ztharness/device_host.py").path)
            && FileManager.default.isExecutableFile(atPath: python)
    }

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    let endpoint: DeviceEndpoint
    private let process = Process()
    private let directory: URL
    private let recordFile: URL

    /// Starts the host with `configuration` (the "device_host" object) and waits until it listens, on a
    /// thread of its own: Python can take seconds to start on a loaded machine, and blocking one of the
    /// few cooperative threads that long starves the suites running beside this one.
    static func start(configuration: [String: any Sendable]) async throws -> DeviceHostProcess {
        try await onOwnThread { try DeviceHostProcess(configuration: configuration) }
    }

    private init(configuration: [String: any Sendable]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ztprov-device-host-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        recordFile = directory.appendingPathComponent("records.jsonl")
        let configFile = directory.appendingPathComponent("config.json")
        try JSONSerialization.data(withJSONObject: ["device_host": configuration]).write(to: configFile)
        let readyFile = directory.appendingPathComponent("ready")
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.currentDirectoryURL = Self.harness
        process.arguments = [
            "-m", "ztharness.device_host", "--config", configFile.path, "--record", recordFile.path,
            "--http-addr", "127.0.0.1:0", "--udp-port", "0", "--ready-file", readyFile.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while !FileManager.default.fileExists(atPath: readyFile.path) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw StartFailure(description: "device host did not become ready")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let listening = try Self.records(in: recordFile).first { $0["event"] as? String == "listening" }
        guard let address = listening?["http"] as? String, let endpoint = DeviceEndpoint(address) else {
            throw StartFailure(description: "no listening record with an HTTP address")
        }
        self.endpoint = endpoint
    }

    deinit {
        // Not SIGTERM: a child spawned from a Swift concurrency thread inherits that thread's signal
        // mask, which blocks SIGTERM, so the host would never see it.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The JSON records the host wrote so far, one object per line.
    func records(event: String) throws -> [[String: Any]] {
        try Self.records(in: recordFile).filter { $0["event"] as? String == event }
    }

    private static func records(in file: URL) throws -> [[String: Any]] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
