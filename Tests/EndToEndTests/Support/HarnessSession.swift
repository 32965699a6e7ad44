import Foundation
import TestSupport

/// One run of the Python harness (`Tests/Harness/harness.py up`): a private system bus with the BlueZ
/// and NetworkManager mocks, and the device host in its own network namespace.
///
/// Prefer `withHarness(scenario:_:)` or the `.harness(_:)` suite trait, which take the run down on every
/// exit path. All commands go through the harness script, so its state file stays the one record of
/// what is running.
struct HarnessSession: Sendable {
    /// What `received(source:)` reads.
    enum Source: String, Sendable {
        case blufi, improv, protocomm, zhiting
        case protocommBLE = "protocomm_ble"
    }

    /// Whose D-Bus method calls `calls(mock:)` reads.
    enum Mock: String, Sendable {
        case bluez, nm
    }

    /// Time any single harness command may take; `up` itself gives up after 8 s.
    private static let commandDeadline: Duration = .seconds(30)

    /// The run directory: state, logs, records and the bus socket.
    let runDirectory: URL
    /// Where everything is, as `up` reported it.
    let topology: HarnessTopology

    /// Environment for a tool under test, so that it talks to the mocks as its system bus.
    var toolEnvironment: [String: String] {
        ["DBUS_SYSTEM_BUS_ADDRESS": topology.busAddress]
    }

    /// `ztprov` with `arguments` in the host namespace, on the harness's bus, with `environment` added
    /// (secrets the tool reads from variables), for at most `deadline`.
    func ztprov(_ arguments: [String], environment: [String: String] = [:], deadline: Duration = .seconds(60))
        throws -> ProcessLaunch
    {
        var launch = try ZTProvProcess.launch(arguments)
        launch.environment = toolEnvironment.merging(environment) { $1 }
        launch.networkNamespace = topology.hostNetns
        launch.deadline = deadline
        return launch
    }

    /// Brings a harness up in a new run directory with `scenario` (format: `Tests/Harness/ztharness/scenario.py`);
    /// if that fails, whatever was started is taken down again before the error is thrown.
    static func up(scenario: JSONValue = [:]) async throws -> HarnessSession {
        // Under /tmp, not $TMPDIR: the bus socket's path must stay within the 108 bytes of a unix address.
        let runDirectory = URL(fileURLWithPath: "/tmp/ztprov-e2e-\(UUID().uuidString.prefix(8).lowercased())")
        let scenarioJSON = String(decoding: try JSONEncoder().encode(scenario), as: UTF8.self)
        do {
            let report = try await command("up", in: runDirectory, ["--scenario-json", scenarioJSON])
            return HarnessSession(runDirectory: runDirectory, topology: try decode(HarnessTopology.self, report))
        } catch {
            _ = try? await command("down", in: runDirectory)
            throw error
        }
    }

    /// Whether every component still runs, and which namespaces exist.
    func status() async throws -> HarnessStatus {
        try Self.decode(HarnessStatus.self, try await Self.command("status", in: runDirectory))
    }

    /// What the emulated devices received (decoded frames, requests, settings), from `source` or all.
    func received(source: Source? = nil) async throws -> JSONValue {
        let filter = source.map { ["--source", $0.rawValue] } ?? []
        return try Self.decode(JSONValue.self, try await Self.command("received", in: runDirectory, filter))
    }

    /// The D-Bus method calls a mock answered (path, interface, method, args, reply), plus the NM
    /// mock's connection state.
    func calls(mock: Mock? = nil) async throws -> JSONValue {
        let filter = mock.map { ["--mock", $0.rawValue] } ?? []
        return try Self.decode(JSONValue.self, try await Self.command("calls", in: runDirectory, filter))
    }

    /// Stops every recorded process and deletes the namespaces; returns what the harness removed.
    ///
    /// Safe to call twice. The run directory stays for inspection until `discardRunDirectory()`.
    @discardableResult
    func down() async throws -> [String] {
        struct Report: Decodable { let removed: [String] }
        return try Self.decode(Report.self, try await Self.command("down", in: runDirectory)).removed
    }

    /// Deletes the run directory with its logs and records; call after `down()`.
    func discardRunDirectory() throws {
        try FileManager.default.removeItem(at: runDirectory)
    }

    private static func command(_ name: String, in runDirectory: URL, _ options: [String] = []) async throws
        -> Data
    {
        let arguments = [RepositoryLayout.harnessScript.path, name, "--run-dir", runDirectory.path] + options
        var launch = ProcessLaunch(RepositoryLayout.python, arguments)
        launch.deadline = commandDeadline
        return Data(try await launch.output().utf8)
    }

    private static func decode<Report: Decodable>(_ type: Report.Type, _ json: Data) throws -> Report {
        try JSONDecoder().decode(type, from: json)
    }
}
