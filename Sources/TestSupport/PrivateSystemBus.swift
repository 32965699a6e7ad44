public import Foundation

/// A private system-type dbus-daemon in a temporary directory, so mock tests need neither root nor the
/// host's bus: every sender may own any name and talk to anyone.
public final class PrivateSystemBus: Sendable {
    public let directory: URL
    /// The bus address, `unix:path=…`, for `DBUS_SYSTEM_BUS_ADDRESS` or a connection of our own.
    public let address: String
    private let daemon: RunningProcess

    public static let dbusDaemon = "/usr/bin/dbus-daemon"

    /// Starts a bus, runs `body`, and stops the bus whatever happens.
    ///
    /// `activatable` maps bus names to programs the bus starts on demand, as the host's bus starts
    /// bluetoothd.
    public static func with<T>(
        activatable: [String: String] = [:], _ body: (PrivateSystemBus) async throws -> T
    ) async throws -> T {
        let bus = try await start(activatable: activatable)
        return try await withCleanup {
            try await body(bus)
        } cleanup: {
            await bus.stop()
        }
    }

    /// Starts the daemon and returns once it listens: it prints its address only then (the socket file
    /// appears a moment earlier).
    public static func start(activatable: [String: String] = [:]) async throws -> PrivateSystemBus {
        let directory = FileManager.default.temporaryDirectory.appending(path: "ztprov-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            let bus = try PrivateSystemBus(directory: directory, activatable: activatable)
            do {
                try await bus.daemon.waitUntilReady("dbus-daemon prints its address") {
                    bus.daemon.standardOutputSoFar.contains("\n")
                }
            } catch {
                await bus.stop()
                throw error
            }
            return bus
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private init(directory: URL, activatable: [String: String]) throws {
        self.directory = directory
        let socket = directory.appending(path: "system_bus_socket").path
        address = "unix:path=\(socket)"
        let services = directory.appending(path: "services")
        if !activatable.isEmpty {
            try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        }
        for (name, program) in activatable {
            try "[D-BUS Service]\nName=\(name)\nExec=\(program)\n".write(
                to: services.appending(path: "\(name).service"), atomically: true, encoding: .utf8)
        }
        let configuration = directory.appending(path: "bus.conf")
        try Self.configuration(socket: socket, services: activatable.isEmpty ? nil : services.path).write(
            to: configuration, atomically: true, encoding: .utf8)
        var launch = ProcessLaunch(
            Self.dbusDaemon, ["--config-file=\(configuration.path)", "--nofork", "--nopidfile", "--print-address=1"])
        launch.deadline = .seconds(600)
        daemon = try launch.start()
    }

    /// How to start `executable` with this bus as its system bus (`DBUS_SYSTEM_BUS_ADDRESS`), its
    /// output in `log` inside ``directory``; the caller starts it, usually with
    /// ``ProcessLaunch/withRunning(_:)``.
    public func launch(_ executable: String, _ arguments: [String], log: String) -> ProcessLaunch {
        var launch = ProcessLaunch(executable, arguments)
        launch.environment = ["DBUS_SYSTEM_BUS_ADDRESS": address]
        launch.outputFile = directory.appending(path: log)
        launch.deadline = .seconds(600)
        return launch
    }

    /// Kills the daemon (the bus holds nothing worth a clean shutdown) and removes its directory.
    public func stop() async {
        await daemon.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The bus's configuration. With services to start it is a `session`-type bus, because a
    /// system-type bus starts them through the setuid activation helper, which a private bus cannot
    /// use; clients see no difference.
    private static func configuration(socket: String, services: String?) -> String {
        let type = services == nil ? "system" : "session"
        let serviceDirectory = services.map { "<servicedir>\($0)</servicedir>" } ?? ""
        return """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>\(type)</type>
              <listen>unix:path=\(socket)</listen>
              \(serviceDirectory)
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
