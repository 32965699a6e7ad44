import ArgumentParser
import JSONWriting
import Provisioning
import ZhitingLAN

/// `ztprov handoff`: point one device already on the LAN at the cloud server, verified by its echo.
struct HandoffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handoff",
        abstract: "Hand a device on the LAN over to the cloud (set_prop.server, verified by the echo).",
        discussion: """
            Finds the device with a UDP hello (broadcast on --lan-interface, or unicast to \
            --device-address), exchanges keys, reads its info and sends the server, port, access token \
            and area. Only a reply that echoes the server and port counts as success.

            Examples:
              ztprov handoff --device-id a1b2c3d4e5f6 --area-id 42 \\
                --access-token-file token.txt --lan-interface wlan0
              ztprov handoff --device-id a1b2c3d4e5f6 --area-id 42 \\
                --sc-url https://gz.sc.zhitingtech.com --sc-session-file session.txt
            """
    )

    @Option(
        help: ArgumentHelp(
            "The device to hand off: 12 hex digits (from BluFi, the BSSID or discover).", valueName: "id"),
        transform: parseDeviceID
    )
    var deviceID: ZhitingDeviceID?

    /// Listed in the order the command works: how to reach the device, then what it is told.
    @OptionGroup(title: "LAN")
    var lan: LANOptions

    @OptionGroup(title: "Hand-off")
    var handoff: HandoffOptions

    @OptionGroup var timeout: TimeoutOption

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if deviceID == nil, lan.deviceAddress == nil {
            throw ValidationError("Pass --device-id (or --device-address to ask one device directly).")
        }
        if handoff.areaID == nil {
            throw ValidationError("Pass --area-id with the SC area the device joins.")
        }
    }

    func run() async throws {
        try await CommandRunner.run(output, timeout: timeout.duration(default: .seconds(45))) {
            (context) async throws(ProvisioningError) -> [JSONField] in
            try await LANHandoffWiring.perform(handoff, lan: lan, deviceID: deviceID, context: context)
        }
    }
}
