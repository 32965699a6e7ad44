import Foundation

/// A private system-type dbus-daemon in a temporary directory, so mock-bus tests need neither root nor the host's
/// bus. Stopped (by its PID) and removed when the test's scope ends.
struct PrivateBus {
    let directory: URL
    let address: String
    let daemon: Process

    /// Why mock-bus tests cannot run here, or nil when dbus-daemon and Debian's python3-dbusmock are present.
    static var unavailableReason: String? {
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") {
            return "dbus-daemon is not installed (apt install dbus-daemon)"
        }
        if !FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/dbusmock") {
            return "python3-dbusmock is not installed (apt install python3-dbusmock)"
        }
        if !FileManager.default.fileExists(atPath: BlueZMock.template) {
            return "the harness's BlueZ template is missing at \(BlueZMock.template)"
        }
        return nil
    }

    static var isAvailable: Bool { unavailableReason == nil }

    /// Starts a bus, runs `body`, and stops the bus whatever happens.
    static func with<T>(_ body: (PrivateBus) async throws -> T) async throws -> T {
        let bus = try start()
        defer { bus.stop() }
        return try await body(bus)
    }

    private static func start() throws -> PrivateBus {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ztprov-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("system_bus_socket").path
        let config = """
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
        let configURL = directory.appendingPathComponent("bus.conf")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(configURL.path)", "--nofork", "--nopidfile", "--print-address=1"]
        let address = Pipe()
        daemon.standardOutput = address
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        // The address is printed once the daemon listens; the socket file alone appears a moment earlier.
        _ = address.fileHandleForReading.availableData
        return PrivateBus(directory: directory, address: "unix:path=\(socket)", daemon: daemon)
    }

    /// Starts a process with this bus as its system bus (`DBUS_SYSTEM_BUS_ADDRESS`).
    func launch(_ executable: String, _ arguments: [String], log: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        process.environment = environment
        let output = FileManager.default.createFile(atPath: directory.appendingPathComponent(log).path, contents: nil)
        precondition(output)
        let handle = try FileHandle(forWritingTo: directory.appendingPathComponent(log))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    func stop() {
        // dbus-daemon started from the test process does not exit on SIGTERM; the bus holds nothing worth a
        // clean shutdown.
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}

enum MockBusTestError: Error {
    case mockDidNotStart(String)
}
