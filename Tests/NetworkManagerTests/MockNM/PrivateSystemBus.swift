import Foundation

/// A dbus-daemon with a permissive system-type configuration in a temporary directory, so mock
/// tests need neither root nor the host's bus.
final class PrivateSystemBus {
    let directory: URL
    let address: String
    private let daemon: Process

    /// Starts the daemon and returns once it answers (its socket file exists a moment before that).
    static func start() async throws -> PrivateSystemBus {
        let bus = try PrivateSystemBus()
        let address = bus.address
        do {
            try await MockNMProcess.waitUntil("dbus-daemon answers on \(address)") {
                MockNMProcess.output(
                    MockNMTools.dbusSend,
                    [
                        "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus", "/",
                        "org.freedesktop.DBus.Peer.Ping",
                    ]
                ) != nil
            }
        } catch {
            bus.stop()
            throw error
        }
        return bus
    }

    private init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ztprov-nm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("system_bus_socket").path
        address = "unix:path=\(socket)"
        let config = directory.appendingPathComponent("bus.conf")
        try Self.configuration(socket: socket).write(to: config, atomically: true, encoding: .utf8)
        daemon = try MockNMProcess.start(MockNMTools.dbusDaemon, ["--nofork", "--config-file=\(config.path)"])
    }

    func stop() {
        MockNMProcess.stop(daemon)
        try? FileManager.default.removeItem(at: directory)
    }

    private static func configuration(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/><allow own="*"/><allow send_destination="*"/><allow receive_sender="*"/>
          </policy>
        </busconfig>
        """
    }
}
