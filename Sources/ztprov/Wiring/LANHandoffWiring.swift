import JSONWriting
import Provisioning
import Sockets
import Transports
import ZhitingLAN

/// The hand-off as every command runs it: `handoff` for a device already on the LAN, and `ble` and
/// `softap` with the device ID they learned while provisioning.
enum LANHandoffWiring {
    /// Resolves the access token, opens the LAN socket, runs ``LANHandoff`` with console progress,
    /// closes the socket, prints the human result, and returns the fields of the JSON result.
    static func perform(
        _ handoff: HandoffOptions,
        lan: LANOptions,
        deviceID: ZhitingDeviceID?,
        context: CommandContext
    ) async throws(ProvisioningError) -> [JSONField] {
        fields(try await handOff(handoff, lan: lan, deviceID: deviceID, context: context))
    }

    /// Like ``perform(_:lan:deviceID:context:)``, returning what the device said (the batch records its
    /// firmware).
    static func handOff(
        _ handoff: HandoffOptions,
        lan: LANOptions,
        deviceID: ZhitingDeviceID?,
        context: CommandContext
    ) async throws(ProvisioningError) -> LANHandoffResult {
        let request = try await handoff.request(target: lan.target(deviceID: deviceID), context: context)
        let link = try lan.openLink()
        defer { link.close() }
        let flow = LANHandoff(LANFlowSetup(link: link, framing: lan.framing, logger: context.logger))
        let printer = ProgressPrinter(console: context.console)
        let result = try await flow.run(request, deadline: context.deadline, progress: printer.report)
        context.console.result("\(result.device.id) at \(result.device.endpoint.host) now uses \(result.echo)")
        return result
    }

    /// The JSON result's hand-off fields.
    static func fields(_ result: LANHandoffResult) -> [JSONField] {
        LANFields.fields(result.device) + [
            JSONField("server", .optional(result.echo.server)), JSONField("port", .optional(result.echo.port)),
        ]
    }
}
