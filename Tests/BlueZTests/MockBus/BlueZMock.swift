import Foundation
import TestSupport

@testable import BlueZ
@testable import DBus

/// The harness's BlueZ emulation (`Tests/Harness/ztharness/bluez_blufi_template.py`) running under
/// python-dbusmock on a private bus.
struct BlueZMock {
    let bus: PrivateSystemBus
    let process: RunningProcess
    let callLog: URL

    /// The shared template, found from this file's place in the repository.
    static let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Harness/ztharness/bluez_blufi_template.py").standardizedFileURL.path

    /// Starts a bus and the mock with `parameters` (the scenario's "bluez" JSON), runs `body`, and stops both.
    static func with<T>(_ parameters: String = "{}", _ body: (BlueZMock) async throws -> T) async throws -> T {
        try await PrivateBus.with { bus in
            let callLog = bus.directory.appendingPathComponent("calls.log")
            let launch = bus.launch(
                RepositoryLayout.python,
                ["-m", "dbusmock", "--template", template, "-l", callLog.path, "-p", parameters], log: "mock.out")
            return try await launch.withRunning { process in
                let mock = BlueZMock(bus: bus, process: process, callLog: callLog)
                try await mock.waitForBlueZ()
                return try await body(mock)
            }
        }
    }

    /// The bus to hand to `BlueZClient.withClient`.
    var busAddress: DBusConnection.Bus { .address(bus.address) }

    /// The BlueZ method names the mock was called with, in order. dbusmock logs "<time> <Method> <args>" per
    /// call, plus "<time> <Method> raised: …" for a failed one and "<time> emit …" per signal.
    func calledMethods() throws -> [String] {
        let text = try String(contentsOf: callLog, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ", maxSplits: 2)
            guard words.count >= 2, words[1] != "emit", !(words.count == 3 && words[2].hasPrefix("raised:")) else {
                return nil
            }
            return String(words[1])
        }
    }

    /// Drops the device's link as a radio would (`org.bluez.Mock.ForceDisconnect`).
    func forceDisconnect(_ address: String) async throws {
        let connection = try await DBusConnection.open(busAddress)
        _ = try await connection.call(
            DBusMethodCall(
                destination: "org.bluez", path: .root, interface: "org.bluez.Mock", member: "ForceDisconnect",
                arguments: [.string(address)]),
            timeout: .seconds(2))
        await connection.close()
    }

    private func waitForBlueZ() async throws {
        let connection = try await DBusConnection.open(busAddress)
        defer { Task { await connection.close() } }
        let query = DBusMethodCall(
            destination: "org.freedesktop.DBus", path: DBusObjectPath("/org/freedesktop/DBus")!,
            interface: "org.freedesktop.DBus", member: "NameHasOwner", arguments: [.string("org.bluez")])
        do {
            try await process.waitUntilReady("org.bluez is on the bus", within: .seconds(30)) {
                try await connection.call(query, timeout: .seconds(1)).first?.bool == true
            }
        } catch {
            let output = try? String(contentsOf: bus.directory.appending(path: "mock.out"), encoding: .utf8)
            throw MockBusTestError.mockDidNotStart(output ?? "\(error)")
        }
    }
}
