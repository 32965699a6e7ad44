import Improv
import JSONWriting
import Provisioning
import Records

/// Improv in `ble` and `demo`: the Wi-Fi options' network with the Improv options; it carries no device
/// ID, so it has no hand-off and no batch mode.
extension BLEFlowEntry {
    static let improv = BLEFlowEntry(
        .improv, ble: ble,
        demo: { _ throws(ProvisioningError) in
            BLEDemoDevice(link: DemoBLELink(peripheral: .other(try DemoDevices.improvPeripheral())))
        })

    private static func ble(_ options: BLERunOptions) throws(ProvisioningError) -> BLEPreparedRun {
        let (settings, command, context, handsOff) = (
            options.settings, options.command, options.context, options.handsOff
        )
        let printer = ProgressPrinter(console: context.console)
        return BLEPreparedRun(
            deadline: context.deadline,
            flow: { (_) throws(ProvisioningError) in
                guard let settings else { throw BLEWiring.threadNeedsProtocomm(.improv) }
                return ImprovBLEFlow(
                    settings: { (capabilities) throws(ProvisioningError) in
                        try command.protocols.improv.settings(
                            from: settings, listsNetworks: command.listsNetworks, handsOff: handsOff,
                            advertised: capabilities)
                    },
                    timeouts: command.protocols.improv.timeouts, minimumSecurity: command.securityFloor.minimum,
                    logger: context.logger, progress: printer.report)
            },
            result: result)
    }

    private static func result(_ outcome: ImprovProvisioningOutcome, peer: BLEPeer) -> BLEFlowResult {
        let joined = outcome.joinedSSID.map { "joined \($0)" } ?? "done"
        var fields = [
            JSONField("protocol", .string(BLEProtocol.improv.rawValue)),
            JSONField("address", .string(peer.address)), JSONField("name", .optional(peer.name)),
            JSONField("improv_state", .optional(outcome.initialState.map(ImprovFields.name))),
            JSONField("authorization_waited", .bool(outcome.waitedForAuthorization)),
            JSONField(
                "secured_with",
                .string(ProvisioningSecurity(outcome.waitedForAuthorization ? .improvAuthorized : .improv).text)),
            JSONField("identified", .bool(outcome.identified)),
            JSONField("ssid", .optional(outcome.joinedSSID)),
            JSONField("redirect_url", .optional(outcome.redirectURL)),
            JSONField("hostname", .optional(outcome.hostname)),
            JSONField("device_name", .optional(outcome.deviceName)),
            JSONField("mtu", .int(outcome.mtu)),
        ]
        if let capabilities = outcome.capabilities {
            fields.append(ImprovFields.capabilitiesField(capabilities))
        }
        if let info = outcome.deviceInfo {
            fields.append(JSONField("device_info", .object(ImprovFields.fields(info))))
        }
        if let networks = outcome.networks { fields.append(ImprovFields.networksField(networks)) }
        return BLEFlowResult(
            summary: "\(peer.name ?? peer.address) (Improv) \(joined)", fields: fields,
            nextSteps: outcome.redirectURL.map { ["Continue the device's setup at \($0)"] } ?? [])
    }
}
