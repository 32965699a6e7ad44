import Foundation
import TestSupport

/// The harness's independent Python model of a Zhiting device, served on a free loopback UDP port.
///
/// It runs `ztharness.device_host`, whose records say exactly what arrived.
final class PythonZhitingDevice: @unchecked Sendable {
    static let harness = RepositoryLayout.harnessDirectory
    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: harness.appendingPathComponent("ztharness/device_host.py").path)
    }

    private let process = Process()
    private let directory: URL
    let port: UInt16
    let deviceID: String
    /// The device's token as 32 hex digits, to prove it is never printed.
    let token: String
    /// The device's JSON Lines record file.
    let records: URL

    /// Starts the device with the `zhiting` configuration keys of `zhiting_device.py`, on a thread
    /// of its own because waiting for the host to listen blocks.
    static func start(_ zhiting: [String: any Sendable]) async throws -> PythonZhitingDevice {
        try await onOwnThread { try PythonZhitingDevice(zhiting) }
    }

    private init(_ zhiting: [String: any Sendable]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ztprov-e2e-\(UUID().uuidString)")
        records = directory.appendingPathComponent("records.jsonl")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("config.json")
        try JSONSerialization.data(withJSONObject: ["zhiting": zhiting]).write(to: config)
        let ready = directory.appendingPathComponent("ready")
        process.executableURL = URL(fileURLWithPath: RepositoryLayout.python)
        process.currentDirectoryURL = Self.harness
        process.arguments = [
            "-m", "ztharness.device_host", "--config", config.path, "--record", records.path,
            "--http-addr", "127.0.0.1:0", "--udp-port", "0", "--ready-file", ready.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let started = Date()
        while !FileManager.default.fileExists(atPath: ready.path) {
            guard process.isRunning, Date().timeIntervalSince(started) < 60 else {
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: "device_host did not start"])
            }
            usleep(20_000)
        }
        let listening = try Self.lines(of: records).first { $0["event"] as? String == "listening" }
        port = UInt16(listening?["udp"] as? Int ?? 0)
        deviceID = listening?["zhiting_device_id"] as? String ?? ""
        token = listening?["zhiting_token"] as? String ?? ""
    }

    /// `127.0.0.1:PORT`, for `--device-address`.
    var address: String { "127.0.0.1:\(port)" }

    /// The JSON-RPC requests the device received, in order.
    func requests() throws -> [[String: Any]] {
        try Self.lines(of: records).filter { $0["event"] as? String == "request" }
    }

    private static func lines(of url: URL) throws -> [[String: Any]] {
        try String(decoding: Data(contentsOf: url), as: UTF8.self).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    deinit {
        // Started by Foundation's Process under the test runner, the host inherits a blocked SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}
