import ArgumentParser
import JSONWriting
import Provisioning

/// `ztprov scan`: which provisionable devices are in BLE range, and through which adapter.
struct ScanCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        let protocols = BLEProtocol.allCases.map(\.description).joined(separator: ", ")
        return CommandConfiguration(
            commandName: "scan",
            abstract: "Scan over BLE for devices ready for provisioning (\(protocols)).",
            discussion: """
                Lists devices advertising a provisioning service (\(protocols)), or with --name-prefix those \
                whose name starts with the prefix, with their address, signal strength (RSSI), protocol, \
                advertised state (Improv: authorization-required, authorized, provisioning, provisioned) and \
                adapter.
                Exits 4 when none was seen.

                Examples:
                  ztprov scan
                  ztprov scan --name-prefix MH- --adapter hci1 --duration 10 --json
                """
        )
    }

    @OptionGroup(title: "Bluetooth")
    var bluetooth: BLEAdapterOptions

    @Option(
        help: ArgumentHelp("How long to scan, in seconds (default: 5).", valueName: "seconds"),
        transform: DecimalSeconds.parse)
    var duration: Double = 5

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if !(duration > 0 && duration <= 600) {
            throw ValidationError("--duration must be a number of seconds between 0 and 600.")
        }
    }

    func run() async throws {
        let scanFor = Duration.milliseconds(Int64(duration * 1000))
        try await CommandRunner.run(output, timeout: scanFor + .seconds(30)) {
            (context) async throws(ProvisioningError) -> [JSONField] in
            let devices = try await BLEScanWiring.scan(bluetooth, for: scanFor, context: context)
            for device in devices {
                context.console.event("device", device.fields)
            }
            context.console.output(ScanTable(devices).rendered)
            context.console.progress(Self.whatBLEDoes(matching: devices.count))
            return [JSONField("count", .int(devices.count))]
        }
    }

    /// What `ble` with the same options does with this many matching devices.
    static func whatBLEDoes(matching count: Int) -> String {
        guard count > 1 else { return "1 device matches: `ztprov ble` with these options provisions it." }
        return "\(count) devices match: `ztprov ble` with these options asks which one on a terminal, and "
            + "elsewhere refuses unless --device, --pick or a narrower --name-prefix chooses."
    }
}
