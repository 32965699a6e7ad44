import ArgumentParser
import BluFi
import FoundationEssentials
import JSONWriting
import Protocomm
import Provisioning
import Transports
import ZhitingLAN

/// `ztprov ble`: provisioning of one device over BLE (BluFi, Improv or ESP protocomm), then (with
/// hand-off options, BluFi and protocomm) the LAN hand-off.
struct BLECommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ble",
        abstract:
            "Provision a device over BLE (BluFi, Improv or ESP protocomm), then optionally hand it over to the cloud.",
        discussion: """
            Scans for the device (--device, --name-prefix, or the BluFi, Improv and ESP provisioning \
            services) and picks the protocol (--protocol; auto reads the advertisement, else the GATT \
            database and its endpoint names). It waits up to --scan-timeout for a device to appear. When \
            several devices match and none was named, it lists them on a terminal to choose from (arrow \
            keys or a number); elsewhere (scripts, --json) it refuses with ble.several-devices unless \
            --pick strongest or --pick first says which to take.

            BluFi: connects, negotiates the BluFi security, sends the Wi-Fi settings, waits until the \
            device joined and briefly for the device ID it sends. With --area-id and an access token it \
            then finds the device on the LAN by that ID and runs the hand-off.

            Improv: connects, reads the device's state and capabilities, identifies it, sets its hostname \
            and name, lists networks (as asked), then sends the Wi-Fi settings and prints the URL the \
            device names for the rest of its setup. A device that needs authorization waits for its \
            button to be pressed (--authorization-timeout).

            ESP protocomm (network_provisioning, wifi_provisioning): connects (pairing "Just Works" when the \
            device insists, and removing that bond afterwards unless --keep-bond), finds the endpoints by their \
            names, reads proto-ver, runs security 0, 1 (PoP) or 2 (SRP) as the device asks (--sec-ver), lists \
            networks (as asked), sends the Wi-Fi settings and polls until the device joined. After a wrong \
            password it resets the device and tries the --retry-password-* password (or asks on a terminal). \
            --qr-file takes the device's QR payload (name, pop, security, username). With --area-id it hands \
            the device off at the address it reported.

            ESP protocomm with Thread (network_provisioning devices listing thread_prov): instead of --ssid \
            and a password, --thread-dataset-file names a file holding the network's active operational \
            dataset as hex, as `ot-ctl dataset active -x` prints it on the border router. The dataset holds \
            the network key: it is never printed. The device stores it, attaches, and reports the network it \
            joined; --list-networks first lists the Thread networks it hears (thread_scan).

            The password is read from a file, a variable or the terminal, never from the command line.

            Examples:
              ztprov ble --ssid HomeNet --password-file wifi.txt
              ztprov ble --protocol improv --ssid HomeNet --password-file wifi.txt --hostname kitchen-plug
              ztprov ble --protocol protocomm --qr-file qr.json --ssid HomeNet --password-file wifi.txt
              ztprov ble --qr-file qr.json --thread-dataset-file dataset.hex --list-networks
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

    @Option(
        help: ArgumentHelp(
            "When several devices match and none was named: strongest or first (without it, ztprov asks on a "
                + "terminal and refuses elsewhere).",
            valueName: "rule"))
    var pick: DevicePick?

    @Option(
        name: .customLong("protocol"),
        help:
            "Provisioning protocol: auto (from the advertisement, else the GATT database), blufi, improv or protocomm.")
    var bleProtocol: BLEProtocolChoice = .auto

    @OptionGroup(title: "Wi-Fi")
    var wifi: WiFiOptions

    @OptionGroup(title: "Improv")
    var improv: ImprovOptions

    @OptionGroup(title: "ESP provisioning (protocomm)")
    var protocomm: ProtocommBLEOptions

    @Flag(name: .customLong("list-networks"), help: "Print the networks the device sees before sending the settings.")
    var listsNetworks = false

    @OptionGroup var networkCheck: NetworkCheckOptions

    @OptionGroup(title: "Security policy")
    var securityFloor: SecurityFloorOptions

    @OptionGroup(title: "Hand-off (with --area-id)")
    var handoff: HandoffOptions

    @OptionGroup(title: "LAN")
    var lan: LANOptions

    @OptionGroup var timeout: TimeoutOption

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if let device, WiFiOptions.bssidBytes(device) == nil {
            throw ValidationError("--device takes a BLE address such as 24:0A:C4:12:34:56.")
        }
        if device != nil, bluetooth.namePrefix != nil {
            throw ValidationError("Give either --device or --name-prefix, not both.")
        }
        if device != nil, pick != nil {
            throw ValidationError("Give either --device or --pick, not both.")
        }
        if !(scanTimeout > 0 && scanTimeout <= 600) {
            throw ValidationError("--scan-timeout must be a number of seconds between 0 and 600.")
        }
        if case .fixed(let chosen) = bleProtocol,
            let refused = protocolOptions.lazy.compactMap({ $0.refusalAtParsing(chosen) }).first
        {
            throw ValidationError(refused)
        }
        if handoff.areaID == nil, lan.interface != nil || lan.deviceAddress != nil {
            throw ValidationError("LAN options belong to the hand-off: pass --area-id as well.")
        }
        try validateNetwork()
    }

    /// The options only some protocols honour, each group with the protocols it applies to: `ble` refuses
    /// one given for any other protocol, and those of a Wi-Fi protocol with Thread, from this list alone.
    var protocolOptions: [BLEProtocolOptions] {
        [
            BLEProtocolOptions(kind: "a BluFi option", appliesTo: [.bluFi], given: wifi.bluFiOnlyOption),
            BLEProtocolOptions(kind: "an Improv option", appliesTo: [.improv], given: improv.firstOption),
            BLEProtocolOptions(kind: "an ESP protocomm option", appliesTo: [.protocomm], given: protocomm.firstOption),
        ]
    }

    /// A Thread dataset replaces the Wi-Fi network and everything that goes with it.
    private func validateNetwork() throws {
        guard protocomm.threadDatasetFile != nil else { return try wifi.requireNetwork() }
        if let refused = wifi.firstWiFiOption {
            throw ValidationError("\(refused) is a Wi-Fi option: not with --thread-dataset-file (Thread).")
        }
        if let refused = protocolOptions.first(where: { $0.given != nil && !$0.appliesTo.contains(.protocomm) }),
            let given = refused.given
        {
            throw ValidationError("\(given) is \(refused.kind): not with Thread.")
        }
        if protocomm.retryPassword.isGiven {
            throw ValidationError("--retry-password-file/--retry-password-env is a Wi-Fi option: not with Thread.")
        }
        if networkCheck.checksNetwork || networkCheck.hidden {
            throw ValidationError("--check-network and --hidden judge a Wi-Fi network: not with Thread.")
        }
        if handoff.areaID != nil {
            throw ValidationError("--area-id hands a device over on the Wi-Fi LAN: not with --thread-dataset-file.")
        }
    }

    func run() async throws {
        try await CommandRunner.run(output, timeout: timeout.duration(default: .seconds(180))) {
            (context) async throws(ProvisioningError) -> [JSONField] in
            try await provision(context: context)
        }
    }

    /// Settles the protocol, provisions the device and, with `--area-id`, hands it off; returns the JSON
    /// result's fields.
    func provision(context: CommandContext) async throws(ProvisioningError) -> [JSONField] {
        let handsOff = handoff.areaID != nil
        let qr = try protocomm.qrPayload()
        let thread = try protocomm.threadDataset()
        var settings = try thread == nil ? wifi.settings(expectsDeviceID: handsOff) : nil
        settings?.listsNetworks = listsNetworks
        settings?.checksNetwork = networkCheck.checksNetwork
        settings?.hidden = networkCheck.hidden
        var bluetooth = bluetooth
        var choice = bleProtocol
        if let qr, device == nil, bluetooth.namePrefix == nil { bluetooth.namePrefix = qr.name }
        if qr != nil || thread != nil, choice == .auto { choice = .fixed(.protocomm) }
        let options = BLERunOptions(
            command: self, settings: settings, thread: thread, qr: qr, handsOff: handsOff, context: context)
        let result = try await BLEWiring.provision(
            options, bluetooth: bluetooth, device: device, policy: DevicePick.policy(device: device, pick: pick),
            choice: choice, scanFor: .milliseconds(Int64(scanTimeout * 1000)))
        context.console.result(result.summary)
        for step in result.nextSteps { context.console.next(step) }
        var fields = result.fields
        guard handsOff, let target = result.handoff else {
            if case .deviceID(let reported)? = result.handoff, let id = reported.flatMap(ZhitingDeviceID.init) {
                context.console.next(
                    "Hand it over to the cloud: ztprov handoff --device-id \(id) --area-id AREA "
                        + "--access-token-file FILE --lan-interface \(lan.interface ?? "IFACE")")
            }
            return fields
        }
        var lan = lan
        let deviceID: ZhitingDeviceID?
        switch target {
        case .deviceID(let reported):
            deviceID = try Self.deviceID(reported)
        case .address(let address):
            if lan.deviceAddress == nil { lan.deviceAddress = address }
            deviceID = nil
        }
        fields.append(
            JSONField(
                "handoff",
                .object(try await LANHandoffWiring.perform(handoff, lan: lan, deviceID: deviceID, context: context))))
        return fields
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
}
