public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private system-type dbus-daemon in a temporary directory, so mock tests need neither root nor the
/// host's bus: every sender may own any name and talk to anyone.
public final class PrivateSystemBus: Sendable {
    public let directory: URL
    /// The bus address, `unix:path=…`, for `DBUS_SYSTEM_BUS_ADDRESS` or a connection of our own.
    public let address: String
    private let daemon: Process

    public static let dbusDaemon = "/usr/bin/dbus-daemon"

    /// Starts a bus, runs `body`, and stops the bus whatever happens.
    public static func with<T>(_ body: (PrivateSystemBus) async throws -> T) async throws -> T {
        let bus = try await start()
        defer { bus.stop() }
        return try await body(bus)
    }

    /// Starts the daemon and returns once it listens: it prints its address only then (the socket file
    /// appears a moment earlier). The wait runs on a thread of its own.
    public static func start() async throws -> PrivateSystemBus {
        try await onOwnThread { try PrivateSystemBus() }
    }

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ztprov-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("system_bus_socket").path
        address = "unix:path=\(socket)"
        let configuration = directory.appendingPathComponent("bus.conf")
        try Self.configuration(socket: socket).write(to: configuration, atomically: true, encoding: .utf8)
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: Self.dbusDaemon)
        daemon.arguments = ["--config-file=\(configuration.path)", "--nofork", "--nopidfile", "--print-address=1"]
        let printed = Pipe()
        daemon.standardOutput = printed
        daemon.standardError = FileHandle.nullDevice
        do {
            try daemon.run()
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        _ = printed.fileHandleForReading.availableData
    }

    /// Starts a process with this bus as its system bus (`DBUS_SYSTEM_BUS_ADDRESS`), its output in `log`
    /// inside ``directory``.
    public func launch(_ executable: String, _ arguments: [String], log: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": address]) {
            $1
        }
        let path = directory.appendingPathComponent(log)
        precondition(FileManager.default.createFile(atPath: path.path, contents: nil))
        let handle = try FileHandle(forWritingTo: path)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    /// Kills the daemon and removes its directory. SIGKILL, because children started from a Swift
    /// concurrency thread inherit its blocked signal mask and may never see SIGTERM; the bus holds
    /// nothing worth a clean shutdown.
    public func stop() {
        if daemon.isRunning {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    private static func configuration(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_destination="*" eavesdrop="true"/>
            <allow receive_sender="*"/>
          </policy>
        </busconfig>
        """
    }
}
