public import Foundation

/// The harness's emulated device (`Tests/Harness/ztharness/device_host.py`) on 127.0.0.1: the
/// independent Python models of the protocomm and Zhiting devices, run with Debian's Python for as long
/// as one test holds it. Its JSON Lines record file says exactly what arrived.
public final class HarnessDeviceHost: Sendable {
    /// Whether the device host and the interpreter it needs are present in this checkout.
    public static var isAvailable: Bool {
        FileManager.default.fileExists(
            atPath: RepositoryLayout.harnessDirectory.appending(path: "ztharness/device_host.py").path)
            && FileManager.default.isExecutableFile(atPath: RepositoryLayout.python)
    }

    /// The HTTP listener, `127.0.0.1:PORT`.
    public let httpAddress: String
    /// The Zhiting UDP port.
    public let udpPort: UInt16
    /// The Zhiting device's ID.
    public let deviceID: String
    /// The Zhiting device's token as 32 hex digits, to prove it is never printed.
    public let token: String
    /// The host's JSON Lines record file.
    public let recordFile: URL
    private let directory: URL
    private let process: RunningProcess

    /// Starts the host with `configuration` (the scenario object: `"device_host"`, `"zhiting"`, …)
    /// and returns once it listens.
    public static func start(configuration: [String: any Sendable]) async throws -> HarnessDeviceHost {
        let directory = FileManager.default.temporaryDirectory.appending(path: "ztprov-device-host-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            return try await HarnessDeviceHost(configuration: configuration, directory: directory)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Starts the host serving only a Zhiting device with these `zhiting` settings.
    public static func start(zhiting: [String: any Sendable]) async throws -> HarnessDeviceHost {
        try await start(configuration: ["zhiting": zhiting])
    }

    /// Starts the host with these `device_host` settings (protocomm over HTTP and its random values).
    public static func start(deviceHost: [String: any Sendable]) async throws -> HarnessDeviceHost {
        try await start(configuration: ["device_host": deviceHost])
    }

    private init(configuration: [String: any Sendable], directory: URL) async throws {
        self.directory = directory
        recordFile = directory.appending(path: "records.jsonl")
        let configFile = directory.appending(path: "config.json")
        try JSONSerialization.data(withJSONObject: configuration).write(to: configFile)
        let readyFile = directory.appending(path: "ready")
        var launch = ProcessLaunch(
            RepositoryLayout.python,
            [
                "-m", "ztharness.device_host", "--config", configFile.path, "--record", recordFile.path,
                "--http-addr", "127.0.0.1:0", "--udp-port", "0", "--ready-file", readyFile.path,
            ])
        launch.workingDirectory = RepositoryLayout.harnessDirectory
        launch.outputFile = directory.appending(path: "output.log")
        launch.deadline = .seconds(600)
        process = try launch.start()
        let listening: [String: Any]
        do {
            try await process.waitUntilReady("the device host's ready file") {
                FileManager.default.fileExists(atPath: readyFile.path)
            }
            let records = try Self.records(in: recordFile)
            guard let record = records.first(where: { $0["event"] as? String == "listening" }) else {
                throw ProcessLaunchError.notReady("a listening record", nil)
            }
            listening = record
        } catch {
            await process.stop()
            throw error
        }
        guard let http = listening["http"] as? String else {
            await process.stop()
            throw ProcessLaunchError.notReady("a listening record with an HTTP address", nil)
        }
        httpAddress = http
        udpPort = UInt16(listening["udp"] as? Int ?? 0)
        deviceID = listening["zhiting_device_id"] as? String ?? ""
        token = listening["zhiting_token"] as? String ?? ""
    }

    deinit {
        process.stopBlocking()
        try? FileManager.default.removeItem(at: directory)
    }

    /// `127.0.0.1:PORT` of the Zhiting UDP port, for `--device-address`.
    public var zhitingAddress: String { "127.0.0.1:\(udpPort)" }

    /// The records the host wrote so far with this `event`, one object per line.
    public func records(event: String) throws -> [[String: Any]] {
        try Self.records(in: recordFile).filter { $0["event"] as? String == event }
    }

    private static func records(in file: URL) throws -> [[String: Any]] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
