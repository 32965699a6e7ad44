import BlueZ
import DBus
import Foundation
import TestSupport

/// bluetoothd as the harness emulates it (python-dbusmock with its BlueZ template) on a private bus,
/// with one echo peripheral in range of hci0.
enum EchoPeripheral {
    static let address = "24:0A:C4:EC:40:01"

    /// Why the peripheral cannot run here, or nil.
    static var unavailableReason: String? {
        FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/dbusmock")
            ? nil : "python3-dbusmock is not installed (apt install python3-dbusmock)"
    }

    /// Starts the bus and the peripheral, runs `body` with the bus, and stops both.
    static func with<T>(_ body: (DBusConnection.Bus) async throws -> T) async throws -> T {
        let template = RepositoryLayout.harnessDirectory.appending(path: "ztharness/bluez_blufi_template.py").path
        let parameters = #"{"devices": [{"address": "\#(address)", "echo": {}}]}"#
        return try await PrivateSystemBus.with { bus in
            let launch = bus.launch(
                RepositoryLayout.python, ["-m", "dbusmock", "--template", template, "-p", parameters], log: "mock.out")
            return try await launch.withRunning { process in
                let address = DBusConnection.Bus.address(bus.address)
                try await process.waitUntilReady("the BlueZ mock's adapter") {
                    (try? await BlueZClient.withClient(bus: address) { try await $0.adapter(.firstPowered) }) != nil
                }
                return try await body(address)
            }
        }
    }
}
