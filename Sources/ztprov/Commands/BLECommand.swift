import ArgumentParser
import BluFi
import Provisioning
import ZhitingLAN

/// `ztprov ble`: BluFi provisioning of one device over BLE, then (with hand-off options) the LAN hand-off.
struct BLECommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ble",
        abstract: "Provision a device over BLE (BluFi), then optionally hand it over to the cloud.",
        discussion: """
            Scans for the device (--device, --name-prefix, or the BluFi service FFFF), connects, \
            negotiates the BluFi security, sends the Wi-Fi settings, waits until the device joined and \
            briefly for the device ID it sends. With --area-id and an access token it then finds the \
            device on the LAN by that ID and runs the hand-off. The password is read from a file, a \
            variable or the terminal, never from the command line.

            Examples:
              ztprov ble --ssid HomeNet --password-file wifi.txt
              ZTPROV_WIFI_PASSWORD=... ztprov ble --ssid HomeNet --name-prefix MH- --security v2 \\
                --area-id 42 --access-token-file token.txt --lan-interface wlan0 --json
            """
    )

    @Option(help: ArgumentHelp("The device's BLE address (AA:BB:CC:DD:EE:FF).", valueName: "address"))
    var device: String?

    @OptionGroup(title: "Bluetooth")
    var bluetooth: BLEAdapterOptions

    @Option(
        help: ArgumentHelp("How long to scan for the device, in seconds (default: 15).", valueName: "seconds"),
        transform: DecimalSeconds.parse)
    var scanTimeout: Double = 15

    @OptionGroup(title: "Wi-Fi")
    var wifi: BluFiOptions

    @Flag(name: .customLong("list-networks"), help: "Print the networks the device sees before sending the settings.")
    var listsNetworks = false

    @OptionGroup(title: "Hand-off (with --area-id)")
    var handoff: HandoffOptions

    @OptionGroup(title: "LAN")
    var lan: LANOptions

    @OptionGroup var timeout: TimeoutOption

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let device, BluFiOptions.bssidBytes(device) == nil {
            throw ValidationError("--device takes a BLE address such as 24:0A:C4:12:34:56.")
        }
        if device != nil, bluetooth.namePrefix != nil {
            throw ValidationError("Give either --device or --name-prefix, not both.")
        }
        if !(scanTimeout > 0 && scanTimeout <= 600) {
            throw ValidationError("--scan-timeout must be a number of seconds between 0 and 600.")
        }
        if handoff.areaID == nil, lan.interface != nil || lan.deviceAddress != nil {
            throw ValidationError("LAN options belong to the hand-off: pass --area-id as well.")
        }
    }

    func run() async throws {
        try await CommandRunner.run(output, timeout: timeout.duration(default: .seconds(180))) {
            (context) async throws(ProvisioningError) -> [JSONField] in
            let handsOff = handoff.areaID != nil
            var settings = try wifi.settings(expectsDeviceID: handsOff)
            settings.listsNetworks = listsNetworks
            let run = try await bluetooth.provision(
                settings, device: device, security: wifi.securityChoice,
                scanFor: .milliseconds(Int64(scanTimeout * 1000)), context: context)
            context.console.result(Self.summary(run))
            var fields = Self.fields(run)
            if handsOff {
                let id = try Self.deviceID(run.outcome.deviceID)
                fields.append(
                    JSONField("handoff", .object(try await handoff.perform(lan: lan, deviceID: id, context: context))))
            }
            return fields
        }
    }

    /// The ID the LAN protocol needs: the 12 hex digits the device sent as custom data.
    private static func deviceID(_ text: String?) throws(ProvisioningError) -> ZhitingDeviceID {
        guard let text, let id = ZhitingDeviceID(text.lowercased()) else {
            throw ProvisioningError(
                .bluFiUnusableDeviceID,
                text.map { "The device sent \"\($0)\" as its ID, not the 12 hex digits the LAN hand-off needs." }
                    ?? "The device did not send its ID.",
                hint: "Run `ztprov discover` to find the device's ID, then `ztprov handoff --device-id ID`.")
        }
        return id
    }

    private static func summary(_ run: BLEAdapterOptions.BluFiRun) -> String {
        let id = run.outcome.deviceID.map { " as \($0)" } ?? ""
        return "\(run.name ?? run.address)\(id) provisioned: \(run.outcome.report)"
    }

    private static func fields(_ run: BLEAdapterOptions.BluFiRun) -> [JSONField] {
        let outcome = run.outcome
        return [
            JSONField("address", .string(run.address)), JSONField("name", .optional(run.name)),
            JSONField("device_id", .optional(outcome.deviceID)),
            JSONField("security", .string(BluFiProgressPrinter.name(outcome.security))),
            JSONField("rejected_security", .optional(outcome.rejectedScheme.map(BluFiProgressPrinter.name))),
            JSONField("blufi_version", .optional(outcome.deviceVersion.map { "\($0)" })),
            JSONField("mtu", .int(outcome.traffic.mtu)),
            JSONField("frames_written", .int(outcome.traffic.framesWritten)),
            JSONField("frames_received", .int(outcome.traffic.framesReceived)),
        ] + BluFiProgressPrinter.fields(outcome.report)
    }
}
