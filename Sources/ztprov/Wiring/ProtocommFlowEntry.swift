import FoundationEssentials
import JSONWriting
import Protocomm
import Provisioning

/// ESP protocomm in `ble` (Wi-Fi or Thread, with its session options and QR payload), in `batch` (a unit
/// whose QR payload names it) and in `demo`; a Wi-Fi device is handed off at the address it reported.
extension BLEFlowEntry {
    static let protocomm = BLEFlowEntry(
        .protocomm,
        ble: { (options) throws(ProvisioningError) in
            let (protocomm, context) = (options.command.protocomm, options.context)
            let network = try network(options)
            let retryPassphrase =
                try network == nil
                ? nil : protocomm.retryPassphraseSource(environment: ProcessInfo.processInfo.environment)
            let printer = ProgressPrinter(console: context.console)
            return BLEPreparedRun(
                deadline: context.deadline,
                flow: { (_) throws(ProvisioningError) in
                    guard let network else {
                        throw ProvisioningError(
                            .invalidOption, "An ESP protocomm device only joins a network: it has no SoftAP modes.",
                            hint: "Use --mode sta (the default) with --ssid.")
                    }
                    return ProtocommBLEFlow(
                        network, retryPassphrase: retryPassphrase, keepsBond: protocomm.keepsBond,
                        progress: printer.report)
                },
                result: result)
        },
        batch: { options in
            BatchBLEFlow(
                heard: .byQRPayload, sessionStep: "session",
                run: { context, link in
                    guard let unit = context.device.protocomm, let station = options.settings.mode.stationOnly else {
                        throw ProvisioningError(
                            .invalidOption, "An ESP protocomm unit only joins a network: it has no SoftAP modes.",
                            hint: "Use --mode sta (the default) with --ssid.")
                    }
                    let pop = context.device.proofOfPossession
                    let request = ProtocommWiFiRequest(
                        network: ProtocommTargetNetwork(ssid: station.ssid, passphrase: station.password),
                        security: ProtocommSecurityOptions(
                            level: unit.security, proofOfPossession: unit.security == .security2 ? nil : pop,
                            srpUsername: unit.username ?? "wifiprov",
                            srpPassword: unit.security == .security1 ? nil : pop, minimum: options.minimumSecurity))
                    let progress: ProtocommProgressSink = { progress in
                        context.journal.note(progress)
                        context.progress("\(progress)")
                    }
                    let outcome = try await ProtocommBLEFlow(.wifi(request), progress: progress)
                        .run(with: link, deadline: context.deadline)
                    guard case .wifi(let joined) = outcome else { return BatchBLEFlow.Outcome(deviceID: nil) }
                    return BatchBLEFlow.Outcome(
                        deviceID: nil,
                        beforeHandoff:
                            "joined as \(joined.connection.ipAddress); an ESP protocomm unit sends no device ID")
                })
        },
        demo: { _ throws(ProvisioningError) in
            BLEDemoDevice(
                qr: try DemoDevices.protocommLabel(),
                link: DemoBLELink(peripheral: .other(DemoDevices.protocommPeripheral())))
        })

    /// The network from the Thread dataset or the Wi-Fi options; nil for the SoftAP modes, which protocomm
    /// lacks. Secrets are read now, before any radio.
    private static func network(_ options: BLERunOptions) throws(ProvisioningError) -> ProtocommBLEFlow.Network? {
        let protocomm = options.command.protocomm
        let minimum = options.command.securityFloor.minimum
        let listsNetworks = options.command.listsNetworks
        let environment = ProcessInfo.processInfo.environment
        var security = try protocomm.securityOptions(
            qr: options.qr.map(ProtocommQRDefaults.init), environment: environment)
        security.minimum = minimum
        if let thread = options.thread {
            return .thread(ProtocommThreadRequest(dataset: thread, security: security, listsNetworks: listsNetworks))
        }
        guard let station = options.settings?.mode.stationOnly else { return nil }
        return .wifi(
            ProtocommWiFiRequest(
                network: ProtocommTargetNetwork(ssid: station.ssid, passphrase: station.password),
                security: security, listsNetworks: listsNetworks,
                checksNetwork: options.command.networkCheck.checksNetwork,
                hidden: options.command.networkCheck.hidden))
    }

    private static func result(_ outcome: ProtocommBLEFlow.Outcome, peer: BLEPeer) -> BLEFlowResult {
        switch outcome {
        case .wifi(let outcome):
            let connection = outcome.connection
            var fields = protocommFields(
                network: "wifi", peer: peer, endpoints: outcome.endpoints, version: outcome.deviceVersion)
            fields += [
                JSONField("credential_attempts", .int(outcome.credentialAttempts)), JSONField("mtu", .int(outcome.mtu)),
            ]
            fields += ProtocommFields.fields(outcome.security)
            fields += ProtocommFields.fields(connection)
            return BLEFlowResult(
                summary:
                    "\(peer.name ?? peer.address) (ESP protocomm) joined \(connection.ssid) as \(connection.ipAddress)",
                fields: fields, handoff: .address(connection.ipAddress))
        case .thread(let outcome):
            let attachment = outcome.attachment
            var fields = protocommFields(
                network: "thread", peer: peer, endpoints: outcome.endpoints, version: outcome.deviceVersion)
            fields.append(JSONField("mtu", .int(outcome.mtu)))
            fields += ProtocommFields.fields(outcome.security)
            fields += ProtocommFields.fields(attachment)
            if let networks = outcome.networks {
                fields.append(ProtocommFields.threadNetworksField(networks))
            }
            return BLEFlowResult(
                summary: "\(peer.name ?? peer.address) (ESP protocomm) attached to the Thread network "
                    + "\(attachment.networkName) (PAN ID \(ProtocommFields.panID(attachment.panID)), "
                    + "channel \(attachment.channel))",
                fields: fields)
        }
    }

    /// What every ESP protocomm result says first, whichever network the device joined.
    private static func protocommFields(
        network: String, peer: BLEPeer, endpoints: ProtocommGATTEndpoints, version: ProtocommVersionInfo
    ) -> [JSONField] {
        [
            JSONField("protocol", .string(BLEProtocol.protocomm.rawValue)), JSONField("network", .string(network)),
            JSONField("address", .string(peer.address)), JSONField("name", .optional(peer.name)),
            JSONField("service_uuid", .string(endpoints.serviceUUID)),
            JSONField(
                "endpoints_named_by",
                .string(endpoints.naming == .userDescriptions ? "user-descriptions" : "endpoint-numbers")),
            JSONField("protocomm_version", .string(version.version)),
        ]
    }
}
