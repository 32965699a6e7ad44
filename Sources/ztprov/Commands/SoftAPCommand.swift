import ArgumentParser
import FoundationEssentials
import JSONWriting
import Provisioning
import Transports
import ZhitingLAN

/// `ztprov softap`: provision one device through its hotspot, put the host back on its own network,
/// and optionally hand the device over to the cloud.
struct SoftAPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "softap",
        abstract: "Provision a device through its Wi-Fi hotspot (ESP protocomm over HTTP), then hand it off.",
        discussion: """
            Joins the device's hotspot through NetworkManager, asks /proto-ver for the security, runs \
            the session, sends the network's name and password, waits until the device joined, and \
            brings the host's previous connection back, also on errors and Ctrl-C. With --area-id \
            the device is then handed over to the cloud on the LAN, found by the ID its hotspot's \
            BSSID gives.

            Examples:
              ztprov softap --ap-ssid ZT_1A2B3C --ssid HomeNet --password-file wifi.txt
              ztprov softap --ap-ssid PROV_1A2B3C --security 2 --pop-env POP \\
                --ssid HomeNet --password-env WIFI --area-id 42 \\
                --access-token-file token.txt --lan-interface wlan0
            """
    )

    @OptionGroup(title: "Device hotspot")
    var softAP: SoftAPOptions

    @Option(help: ArgumentHelp("The network the device joins (1 to 32 bytes).", valueName: "ssid"))
    var ssid: String

    @OptionGroup(title: "Wi-Fi password")
    var wifiPassword: SecretOptions<WiFiPasswordSecret>

    @Flag(name: .customLong("open-network"), help: "The network has no password; send none.")
    var openNetwork = false

    @OptionGroup(title: "Security policy")
    var securityFloor: SecurityFloorOptions

    @OptionGroup(title: "Hand-off (with --area-id)")
    var handoff: HandoffOptions

    @Option(
        name: .customLong("lan-interface"),
        help: ArgumentHelp(
            "Interface on the devices' LAN for the hand-off; hellos are broadcast on it.", valueName: "if")
    )
    var lanInterface: String?

    @OptionGroup var timeout: TimeoutOption

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if !(1...32).contains(ssid.utf8.count) {
            throw ValidationError("--ssid must be 1 to 32 bytes; it is \(ssid.utf8.count).")
        }
        if let lanInterface, !HostText.isInterfaceName(lanInterface) {
            throw ValidationError("--lan-interface takes a network interface name such as wlan0 (1 to 15 characters).")
        }
    }

    func run() async throws {
        let lan = try LANOptions.parse(lanInterface.map { ["--lan-interface", $0] } ?? [])
        try await CommandRunner.run(output, timeout: timeout.duration(default: .seconds(180))) {
            (context) async throws(ProvisioningError) -> [JSONField] in
            let outcome = try await provision(context: context)
            let fields = Self.fields(outcome)
            guard handoff.areaID != nil else { return fields }
            guard let deviceID = outcome.deviceID.flatMap(ZhitingDeviceID.init) else {
                throw ProvisioningError.softAPDeviceIDUnknown(bssid: outcome.hotspot.bssid)
            }
            let handedOff = try await LANHandoffWiring.perform(handoff, lan: lan, deviceID: deviceID, context: context)
            return fields + [JSONField("handoff", .object(handedOff))]
        }
    }

    private func provision(context: CommandContext) async throws(ProvisioningError) -> SoftAPProvisioningOutcome {
        let environment = ProcessInfo.processInfo.environment
        let network = ProtocommTargetNetwork(
            ssid: ssid,
            passphrase: try WiFiPassphrase.resolve(
                wifiPassword, openNetwork: openNetwork, code: .softAPInvalidPassphrase, environment: environment))
        var request = try softAP.request(network: network, environment: environment)
        request.security.minimum = securityFloor.minimum
        let printer = ProgressPrinter(console: context.console)
        do {
            let outcome = try await SoftAPWiring.provisioner(interface: softAP.wifiInterface)
                .run(request, deadline: context.deadline, progress: printer.report)
            context.console.result(
                "\(outcome.deviceID ?? outcome.hotspot.bssid) joined \(outcome.connection.ssid) as "
                    + outcome.connection.ipAddress)
            return outcome
        } catch let error as ProvisioningError {
            throw error
        } catch {
            throw .interruptedByUser
        }
    }

    /// The JSON result: who the device is and where it went; never a secret.
    static func fields(_ outcome: SoftAPProvisioningOutcome) -> [JSONField] {
        [
            JSONField("device_id", .optional(outcome.deviceID)), JSONField("ip", .string(outcome.connection.ipAddress)),
            JSONField("ssid", .string(outcome.connection.ssid)), JSONField("hotspot", .string(outcome.hotspot.ssid)),
        ] + ProtocommFields.fields(outcome.security)
    }
}

extension ProvisioningError {
    /// The joiner did not say which access point it joined, so the hand-off has no device to ask for.
    fileprivate static func softAPDeviceIDUnknown(bssid: String) -> ProvisioningError {
        ProvisioningError(
            .lanDeviceNotFound, "The device joined its network, but its ID is unknown (hotspot BSSID \"\(bssid)\").",
            hint: "Find it with `ztprov discover`, then run `ztprov handoff --device-id ID`.")
    }
}
