import Foundation
import Glibc
import TestSupport
import Testing

/// No system bus, or a bus that cannot start bluetoothd,
/// is a host precondition (3) whatever the bus answers, never a link failure (5).
@Suite struct BusExitStatusEndToEndTests {
    @Test func noSystemBusIsAHostPrecondition() async throws {
        var random = SplitMix64(seed: 0xB055)
        var addresses = [
            "unix:path=/nonexistent/bus", "unix:abstract=ztprov-none-\(random.next())", "garbage",
            "tcp:host=127.0.0.1,port=1", "unix:", "", "nonce-tcp:", "unix:path=",
        ]
        for _ in 0..<2 {
            addresses.append("unix:path=/tmp/ztprov-no-bus-\(random.next())")
        }
        for (index, address) in addresses.enumerated() {
            for arguments in [[["scan", "--duration", "1"], ["ble", "--ssid", "Net", "--open-network"]][index % 2]] {
                try await HostileRun.expect(
                    arguments, environment: ["DBUS_SYSTEM_BUS_ADDRESS": address], status: 3,
                    code: "host.bluetoothd-absent")
            }
        }
    }

    @Test(.requiresTools("dbus-daemon"))
    func aBusThatCannotStartBluetoothdIsAHostPrecondition() async throws {
        // Activation of org.bluez runs a program that exits at once: the bus answers Spawn.ChildExited.
        try await PrivateSystemBus.with(activatable: ["org.bluez": "/bin/false"]) { bus in
            for arguments in [["scan", "--duration", "1"], ["ble", "--ssid", "Net", "--open-network"]] {
                let outcome = try await HostileRun.expect(
                    arguments, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address], status: 3,
                    code: "host.bluetoothd-absent")
                #expect(!outcome.standardError.contains("ble.refused"))
            }
        }
    }
}
