import BluFi
import JSONWriting
import Provisioning
import Records

/// BluFi in `ble`, `batch` and `demo`: the Wi-Fi options' settings sent with `--security`; the device ID it sends
/// names it for the hand-off.
extension BLEFlowEntry {
    static let bluFi = BLEFlowEntry(
        .bluFi,
        ble: { (options) throws(ProvisioningError) in
            let (settings, command, context) = (options.settings, options.command, options.context)
            let printer = ProgressPrinter(console: context.console)
            return BLEPreparedRun(
                deadline: context.deadline,
                flow: { (_) throws(ProvisioningError) in
                    guard let settings else { throw BLEWiring.threadNeedsProtocomm(.bluFi) }
                    return BluFiBLEFlow(
                        settings, security: command.wifi.securityChoice,
                        minimumSecurity: command.securityFloor.minimum, logger: context.logger,
                        progress: printer.report)
                },
                result: result)
        },
        batch: { options in
            BatchBLEFlow(
                heard: .byAdvertisement, sessionStep: nil,
                run: { context, link in
                    let progress: BluFiProgressSink = { progress in
                        context.journal.note(progress)
                        context.progress("\(progress)")
                    }
                    let outcome = try await BluFiBLEFlow(
                        options.settings, security: options.security, minimumSecurity: options.minimumSecurity,
                        logger: options.logger, progress: progress
                    ).run(with: link, deadline: context.deadline)
                    return BatchBLEFlow.Outcome(deviceID: outcome.deviceID)
                })
        },
        demo: { command in
            BLEDemoDevice(
                arguments: command.bluFiSecurity.bleArguments,
                link: DemoBLELink(peripheral: .bluFi(DemoDevices.bluFiLink(command.bluFiSecurity.scheme))))
        })

    private static func result(_ outcome: BluFiProvisioningOutcome, peer: BLEPeer) -> BLEFlowResult {
        let id = outcome.deviceID.map { " as \($0)" } ?? ""
        return BLEFlowResult(
            summary: "\(peer.name ?? peer.address)\(id) provisioned: \(outcome.report)",
            fields: [
                JSONField("protocol", .string(BLEProtocol.bluFi.rawValue)),
                JSONField("address", .string(peer.address)), JSONField("name", .optional(peer.name)),
                JSONField("device_id", .optional(outcome.deviceID)),
                JSONField("security", .string(BluFiFields.name(outcome.security))),
                JSONField("secured_with", .string(ProvisioningSecurity(outcome.security).text)),
                JSONField("rejected_security", .optional(outcome.rejectedScheme.map(BluFiFields.name))),
                JSONField("blufi_version", .optional(outcome.deviceVersion.map { "\($0)" })),
                JSONField("mtu", .int(outcome.traffic.mtu)),
                JSONField("frames_written", .int(outcome.traffic.framesWritten)),
                JSONField("frames_received", .int(outcome.traffic.framesReceived)),
            ] + BluFiFields.fields(outcome.report),
            handoff: .deviceID(outcome.deviceID))
    }
}
