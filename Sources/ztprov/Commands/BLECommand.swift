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
            database and its endpoint names).

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
        name: .customLong("protocol"),
        help:
            "Provisioning protocol: auto (from the advertisement, else the GATT database), blufi, improv or protocomm.")
    var bleProtocol: BLEProtocolChoice = .auto

    @OptionGroup(title: "Wi-Fi")
    var wifi: BluFiOptions

    @OptionGroup(title: "Improv")
    var improv: ImprovOptions

    @OptionGroup(title: "ESP provisioning (protocomm)")
    var protocomm: ProtocommBLEOptions

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
        if case .fixed(.bluFi) = bleProtocol, improv.isUsed {
            throw ValidationError(
                "\(improv.firstOption ?? "--identify") is an Improv option: not with --protocol blufi.")
        }
        if case .fixed(.improv) = bleProtocol, let refused = wifi.bluFiOnlyOption {
            throw ValidationError("\(refused) is a BluFi option: not with --protocol improv.")
        }
        if case .fixed(let chosen) = bleProtocol, chosen != .protocomm, let refused = protocomm.firstOption {
            throw ValidationError("\(refused) is an ESP protocomm option: not with --protocol \(chosen.rawValue).")
        }
        if case .fixed(.protocomm) = bleProtocol, let refused = wifi.bluFiOnlyOption ?? improv.firstOption {
            throw ValidationError("\(refused) does not apply to --protocol protocomm.")
        }
        if handoff.areaID == nil, lan.interface != nil || lan.deviceAddress != nil {
            throw ValidationError("LAN options belong to the hand-off: pass --area-id as well.")
        }
        try validateNetwork()
    }

    /// A Thread dataset replaces the Wi-Fi network and everything that goes with it.
    private func validateNetwork() throws {
        guard protocomm.threadDatasetFile != nil else { return try wifi.requireNetwork() }
        if let refused = wifi.firstWiFiOption {
            throw ValidationError("\(refused) is a Wi-Fi option: not with --thread-dataset-file (Thread).")
        }
        if let refused = improv.firstOption {
            throw ValidationError("\(refused) is an Improv option: not with Thread.")
        }
        if protocomm.retryPassword.isGiven {
            throw ValidationError("--retry-password-file/--retry-password-env is a Wi-Fi option: not with Thread.")
        }
        if handoff.areaID != nil {
            throw ValidationError("--area-id hands a device over on the Wi-Fi LAN: not with --thread-dataset-file.")
        }
    }

    func run() async throws {
        try await CommandRunner.run(output, timeout: timeout.duration(default: .seconds(180))) {
            (context) async throws(ProvisioningError) -> [JSONField] in
            let handsOff = handoff.areaID != nil
            let qr = try protocomm.qrPayload()
            let thread = try protocomm.threadDataset()
            var settings = try thread == nil ? wifi.settings(expectsDeviceID: handsOff) : nil
            settings?.listsNetworks = listsNetworks
            var bluetooth = bluetooth
            var choice = bleProtocol
            if let qr, device == nil, bluetooth.namePrefix == nil { bluetooth.namePrefix = qr.name }
            if qr != nil || thread != nil, choice == .auto { choice = .fixed(.protocomm) }
            let protocommPlan = try Self.protocommPlan(
                settings, thread: thread, options: protocomm, qr: qr, listsNetworks: listsNetworks)
            let (wifi, improv, listsNetworks, bluFiSettings) = (wifi, improv, listsNetworks, settings)
            let plan = BLEAdapterOptions.BLEPlan(
                bluFi: settings, security: wifi.securityChoice,
                improv: { (capabilities) throws(ProvisioningError) in
                    guard let bluFiSettings else { throw BLEAdapterOptions.threadNeedsProtocomm(.improv) }
                    return try improv.settings(
                        from: bluFiSettings, options: wifi, listsNetworks: listsNetworks, handsOff: handsOff,
                        advertised: capabilities)
                },
                improvTimeouts: improv.timeouts, improvOnlyOption: improv.firstOption,
                protocomm: protocommPlan, protocommOnlyOption: protocomm.firstOption)
            let outcome = try await bluetooth.provision(
                plan, device: device, choice: choice, scanFor: .milliseconds(Int64(scanTimeout * 1000)),
                context: context)
            let run: BLEAdapterOptions.BluFiRun
            switch outcome {
            case .improv(let improvRun):
                context.console.result(Self.summary(improvRun))
                return Self.fields(improvRun)
            case .protocomm(let protocommRun):
                context.console.result(Self.summary(protocommRun))
                var fields = Self.fields(protocommRun)
                if handsOff {
                    var lan = lan
                    if lan.deviceAddress == nil { lan.deviceAddress = protocommRun.outcome.connection.ipAddress }
                    fields.append(
                        JSONField(
                            "handoff", .object(try await handoff.perform(lan: lan, deviceID: nil, context: context))))
                }
                return fields
            case .protocommThread(let threadRun):
                context.console.result(Self.summary(threadRun))
                return Self.fields(threadRun)
            case .bluFi(let bluFiRun):
                run = bluFiRun
            }
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
            JSONField("protocol", .string(BLEProtocol.bluFi.rawValue)),
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

extension BLECommand {
    private static func summary(_ run: BLEAdapterOptions.ImprovRun) -> String {
        let outcome = run.outcome
        let joined = outcome.joinedSSID.map { "joined \($0)" } ?? "done"
        return "\(run.name ?? run.address) (Improv) \(joined)"
            + (outcome.redirectURL.map { "; continue at \($0)" } ?? "")
    }

    private static func fields(_ run: BLEAdapterOptions.ImprovRun) -> [JSONField] {
        let outcome = run.outcome
        var fields = [
            JSONField("protocol", .string(BLEProtocol.improv.rawValue)),
            JSONField("address", .string(run.address)), JSONField("name", .optional(run.name)),
            JSONField("improv_state", .optional(outcome.initialState.map(ImprovProgressPrinter.name))),
            JSONField("authorization_waited", .bool(outcome.waitedForAuthorization)),
            JSONField("identified", .bool(outcome.identified)),
            JSONField("ssid", .optional(outcome.joinedSSID)),
            JSONField("redirect_url", .optional(outcome.redirectURL)),
            JSONField("hostname", .optional(outcome.hostname)),
            JSONField("device_name", .optional(outcome.deviceName)),
            JSONField("mtu", .int(outcome.mtu)),
        ]
        if let capabilities = outcome.capabilities {
            fields.append(ImprovProgressPrinter.capabilitiesField(capabilities))
        }
        if let info = outcome.deviceInfo {
            fields.append(JSONField("device_info", .object(ImprovProgressPrinter.fields(info))))
        }
        if let networks = outcome.networks { fields.append(ImprovProgressPrinter.networksField(networks)) }
        return fields
    }
}

extension BLECommand {
    /// The protocomm request from the Thread dataset or the Wi-Fi options; nil for the SoftAP modes,
    /// which protocomm lacks.
    private static func protocommPlan(
        _ settings: BluFiWiFiSettings?, thread: ThreadDataset?, options: ProtocommBLEOptions,
        qr: ESPProvisioningQRPayload?, listsNetworks: Bool
    ) throws(ProvisioningError) -> BLEAdapterOptions.ProtocommPlan? {
        let environment = ProcessInfo.processInfo.environment
        let network: BLEAdapterOptions.ProtocommPlan.Network
        if let thread {
            let security = try options.securityOptions(qr: qr.map(ProtocommQRDefaults.init), environment: environment)
            network = .thread(ProtocommThreadRequest(dataset: thread, security: security, listsNetworks: listsNetworks))
        } else {
            guard case .station(let station) = settings?.mode else { return nil }
            let security = try options.securityOptions(qr: qr.map(ProtocommQRDefaults.init), environment: environment)
            network = .wifi(
                ProtocommWiFiRequest(
                    network: ProtocommTargetNetwork(ssid: station.ssid, passphrase: station.password),
                    security: security, listsNetworks: listsNetworks))
        }
        return BLEAdapterOptions.ProtocommPlan(
            network: network, retryPassphrase: try options.retryPassphraseSource(environment: environment),
            keepsBond: options.keepsBond)
    }

    /// What every ESP protocomm result says first, whichever network the device joined.
    private static func protocommFields(
        network: String, address: String, name: String?, endpoints: ProtocommGATTEndpoints,
        version: ProtocommVersionInfo
    ) -> [JSONField] {
        [
            JSONField("protocol", .string(BLEProtocol.protocomm.rawValue)), JSONField("network", .string(network)),
            JSONField("address", .string(address)), JSONField("name", .optional(name)),
            JSONField("service_uuid", .string(endpoints.serviceUUID)),
            JSONField(
                "endpoints_named_by",
                .string(endpoints.naming == .userDescriptions ? "user-descriptions" : "endpoint-numbers")),
            JSONField("protocomm_version", .string(version.version)),
        ]
    }

    private static func summary(_ run: BLEAdapterOptions.ProtocommThreadRun) -> String {
        let attachment = run.outcome.attachment
        return "\(run.name ?? run.address) (ESP protocomm) attached to the Thread network \(attachment.networkName) "
            + "(PAN ID \(ProtocommProgressPrinter.panID(attachment.panID)), channel \(attachment.channel))"
    }

    private static func fields(_ run: BLEAdapterOptions.ProtocommThreadRun) -> [JSONField] {
        let outcome = run.outcome
        var fields = protocommFields(
            network: "thread", address: run.address, name: run.name, endpoints: outcome.endpoints,
            version: outcome.deviceVersion)
        fields.append(JSONField("mtu", .int(outcome.mtu)))
        fields += ProtocommProgressPrinter.fields(outcome.security)
        fields += ProtocommProgressPrinter.fields(outcome.attachment)
        if let networks = outcome.networks { fields.append(ProtocommProgressPrinter.threadNetworksField(networks)) }
        return fields
    }

    private static func summary(_ run: BLEAdapterOptions.ProtocommRun) -> String {
        let connection = run.outcome.connection
        return "\(run.name ?? run.address) (ESP protocomm) joined \(connection.ssid) as \(connection.ipAddress)"
    }

    private static func fields(_ run: BLEAdapterOptions.ProtocommRun) -> [JSONField] {
        let outcome = run.outcome
        var fields = protocommFields(
            network: "wifi", address: run.address, name: run.name, endpoints: outcome.endpoints,
            version: outcome.deviceVersion)
        fields += [
            JSONField("credential_attempts", .int(outcome.credentialAttempts)), JSONField("mtu", .int(outcome.mtu)),
        ]
        fields += ProtocommProgressPrinter.fields(outcome.security)
        fields += ProtocommProgressPrinter.fields(outcome.connection)
        return fields
    }
}
