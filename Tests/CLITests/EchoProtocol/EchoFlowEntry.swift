import JSONWriting
import Provisioning

@testable import ztprov

/// The echo protocol as the commands run it: `ble` and `batch` echo the network name `--ssid` gives, the
/// one option the protocol reads.
extension BLEFlowEntry {
    static let echo = BLEFlowEntry(
        EchoBLEFlow.bleProtocol,
        ble: { options in
            let phrase = options.command.wifi.ssid ?? ""
            return BLEPreparedRun(deadline: options.context.deadline, flow: { _ in EchoBLEFlow(phrase: phrase) }) {
                echoed, peer in
                BLEFlowResult(
                    summary: "\(peer.address) echoed \(echoed)",
                    fields: [
                        JSONField("protocol", .string(EchoBLEFlow.bleProtocol.rawValue)),
                        JSONField("address", .string(peer.address)), JSONField("echoed", .string(echoed)),
                    ])
            }
        },
        batch: { options in
            let phrase = options.settings.mode.stationOnly?.ssid ?? ""
            return BatchBLEFlow(heard: .byAdvertisement, sessionStep: "session") { context, link in
                let echoed = try await EchoBLEFlow(phrase: phrase).run(with: link, deadline: context.deadline)
                guard echoed == phrase else {
                    throw ProvisioningError(
                        .bleLinkLost, "The device echoed \(echoed), not \(phrase).", hint: "Check the device.")
                }
                return BatchBLEFlow.Outcome(deviceID: nil)
            }
        })
}
