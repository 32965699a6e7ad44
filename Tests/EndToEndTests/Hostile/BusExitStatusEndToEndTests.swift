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
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Activation of org.bluez runs a program that exits at once: the bus answers Spawn.ChildExited.
        let services = directory.appending(path: "services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        try "[D-BUS Service]\nName=org.bluez\nExec=/bin/false\n".write(
            to: services.appending(path: "org.bluez.service"), atomically: true, encoding: .utf8)
        let socket = directory.appending(path: "bus").path
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <servicedir>\(services.path)</servicedir>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        let configPath = directory.appending(path: "bus.conf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        var daemon = ProcessLaunch("/usr/bin/dbus-daemon", ["--config-file=\(configPath)", "--nofork", "--nopidfile"])
        daemon.deadline = .seconds(120)
        let bus = try daemon.start()
        defer { bus.send(signal: SIGTERM) }
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: socket) {
            try await Task.sleep(for: .milliseconds(50))
        }
        for arguments in [["scan", "--duration", "1"], ["ble", "--ssid", "Net", "--open-network"]] {
            let outcome = try await HostileRun.expect(
                arguments, environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(socket)"], status: 3,
                code: "host.bluetoothd-absent")
            #expect(!outcome.standardError.contains("ble.refused"))
        }
    }
}
