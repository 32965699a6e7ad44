import ArgumentParser
import JSONWriting
import Provisioning
import Sockets
import Transports
import ZhitingLAN

/// `ztprov discover`: list the Zhiting devices and Smart Assistant hubs on the LAN.
struct DiscoverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discover",
        abstract: "List Zhiting devices and Smart Assistant hubs on the LAN (UDP hello on 54321).",
        discussion: """
            Sends hellos for the listening window, then asks every device that answered for its model \
            and versions. With --json, one {"event":"device",…} line per device, then the result.

            Example:
              ztprov discover --lan-interface wlan0
            """
    )

    @Option(help: ArgumentHelp("Only this device (12 hex digits).", valueName: "id"), transform: parseDeviceID)
    var deviceID: ZhitingDeviceID?

    @Option(
        help: ArgumentHelp("Seconds to listen for answers to the hello (default: 3).", valueName: "seconds"),
        transform: DecimalSeconds.parse)
    var listen: Double = 3

    @OptionGroup(title: "LAN")
    var lan: LANOptions

    @OptionGroup var timeout: TimeoutOption

    @OptionGroup var output: OutputOptions

    func validate() throws {
        guard listen > 0, listen <= 600 else { throw ValidationError("--listen must be between 0 and 600 seconds.") }
    }

    func run() async throws {
        let timeouts = LANTimeouts(listenWindow: .milliseconds(Int64(listen * 1000)))
        try await CommandRunner.run(output, timeout: timeout.duration(default: .seconds(listen + 20))) {
            (context) async throws(ProvisioningError) -> [JSONField] in
            let link = try lan.openLink()
            defer { link.close() }
            let flow = LANDiscovery(
                LANFlowSetup(link: link, timeouts: timeouts, framing: lan.framing, logger: context.logger))
            let printer = ProgressPrinter(console: context.console)
            let found = try await flow.run(
                lan.target(deviceID: deviceID), deadline: context.deadline, progress: printer.report)
            for entry in found {
                if let problem = entry.problem {
                    context.console.warning("\(entry.device.id): \(problem.message)")
                }
                context.console.event("device", DiscoveryTable.fields(entry))
            }
            context.console.output(DiscoveryTable(found).rendered)
            return [JSONField("count", .int(found.count))]
        }
    }
}
