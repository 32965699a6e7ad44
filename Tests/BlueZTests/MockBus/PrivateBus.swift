import Foundation
import TestSupport

/// The BlueZ mock's private bus (TestSupport's ``PrivateSystemBus``), and whether its tools are here.
enum PrivateBus {
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
    static func with<T>(_ body: (PrivateSystemBus) async throws -> T) async throws -> T {
        try await PrivateSystemBus.with(body)
    }
}

enum MockBusTestError: Error {
    case mockDidNotStart(String)
}
