import ArgumentParser
import DBus
import Foundation
import JSONWriting
import Logging
import Provisioning
import TestSupport
import Testing

@testable import ztprov

/// A fourth BLE protocol, registered by a test, runs through `scan`, `ble` and `batch` like the built-in
/// ones: no command, wiring or error mapping knows it.
@Suite(.enabled(if: EchoPeripheral.unavailableReason == nil), .timeLimit(.minutes(2)))
struct EchoProtocolTests {
    @Test func scanNamesTheRegisteredProtocol() async throws {
        let devices = try await withEcho { bus, context in
            try await BLEScanWiring.scan(ScanCommand.parse([]).bluetooth, for: .milliseconds(1500), context: context)
        }
        #expect(devices.map(\.address) == [EchoPeripheral.address])
        #expect(devices.first?.advertisedProtocol == EchoBLEFlow.bleProtocol)
        #expect(devices.first?.fields.contains(JSONField("protocol", .string("echo"))) == true)
    }

    @Test(arguments: [[], ["--protocol", "echo"]])
    func bleDetectsAndRunsTheRegisteredProtocol(protocolOption: [String]) async throws {
        let fields = try await withEcho { bus, context in
            try await BLECommand.parse(
                protocolOption + ["--ssid", "hello echo", "--open-network", "--scan-timeout", "20"]
            )
            .provision(context: context)
        }
        #expect(
            fields == [
                JSONField("protocol", .string("echo")), JSONField("address", .string(EchoPeripheral.address)),
                JSONField("echoed", .string("hello echo")),
            ])
    }

    @Test func anotherProtocolsOptionIsRefusedForIt() async throws {
        let error = await #expect(throws: ProvisioningError.self) {
            try await withEcho { bus, context in
                try await BLECommand.parse(["--ssid", "hello echo", "--open-network", "--keep-bond"])
                    .provision(context: context)
            }
        }
        #expect(error?.code == .invalidOption)
        #expect(error?.message == "--keep-bond does not apply to an Echo device: it is an ESP protocomm option.")
    }

    @Test func batchRunsAUnitThatAdvertisesTheRegisteredProtocol() async throws {
        let directory = try TemporaryDirectory("echo-batch")
        defer { directory.remove() }
        let units = directory.url.appending(path: "units.csv")
        try "address\n\(EchoPeripheral.address)\n".write(to: units, atomically: true, encoding: .utf8)
        let streams = CapturedStreams()
        let fields = try await withEcho(streams) { bus, context in
            let command = try BatchCommand.parse([
                "--devices", units.path, "--db", directory.url.appending(path: "records.sqlite").path,
                "--ssid", "hello echo", "--open-network", "--retries", "0",
            ])
            return try await BatchPlan.make(command, context: context).run(context: context)
        }
        #expect(fields.contains(JSONField("provisioned", .int(1))))
        #expect(
            streams.standardOutput.contains(
                #""protocol":"echo","security":null,"secured_with":null,"attempt":1,"final":true,"code":"ok""#),
            "\(streams.standardOutput)")
    }

    /// Runs `body` with the echo peripheral in range and the echo protocol registered.
    private func withEcho<T: Sendable>(
        _ streams: CapturedStreams = CapturedStreams(),
        _ body: (DBusConnection.Bus, CommandContext) async throws -> T
    ) async throws -> T {
        let context = CommandContext(
            console: streams.console(json: true), logger: Logger(label: "echo"), deadline: .now + .seconds(60))
        return try await EchoPeripheral.with { bus in
            try await BusHandshake.$systemBus.withValue(bus) {
                try await BLEFlowRegistry.with([.echo]) { try await body(bus, context) }
            }
        }
    }
}
