import Transports
import ZhitingLAN

/// Failures once the device was found: it refused, stayed silent, or answered wrongly.
extension ProvisioningError {
    static func lanProtocol(_ error: ZhitingLANError, device: LANDevice) -> ProvisioningError {
        let id = device.id
        switch error {
        case .deviceRejected(let code, let message):
            let reason = [code.map { "code \($0)" }, message].compactMap { $0 }.joined(separator: ": ")
            return ProvisioningError(
                .handoffRejected,
                "Device \(id) refused the request\(reason.isEmpty ? "" : " (\(reason))").",
                hint: "Check --area-id and fetch a fresh access token; then retry."
            )
        case .serverNotEchoed:
            return ProvisioningError(
                .handoffNotConfirmed,
                "Device \(id) answered set_prop.server without echoing the server and port.",
                hint: "The device may not have stored the server; power-cycle it and run the hand-off again."
            )
        case .serverMismatch(let expected, let echoed):
            return ProvisioningError(
                .handoffServerMismatch,
                "Device \(id) echoed server \(echoed) instead of \(expected).",
                hint:
                    "Another app or hub may be configuring it at the same time; close it, check --server and --port, retry."
            )
        case .deviceIsSmartAssistant(let model):
            return ProvisioningError(
                .handoffTargetIsHub,
                "\(id) is a Smart Assistant hub (\(model)), not a device.",
                hint: "Pick a device from `ztprov discover` whose kind is device; hubs are bound with the Zhiting app."
            )
        default:
            return ProvisioningError(
                .lanBadReply,
                "Device \(id) sent a reply this tool cannot use.",
                hint: "Check that nothing else is talking to the device and retry; --verbose shows the packets.",
                detail: "\(error)"
            )
        }
    }

    static func lanSilence(
        in phase: ZhitingLANClient.Phase,
        of device: LANDevice,
        evidence: LANSilenceEvidence
    ) -> ProvisioningError {
        let id = device.id
        if let first = evidence.unusableReplies.first {
            return ProvisioningError(
                .lanBadReply,
                "Device \(id) answered, but its replies could not be used (\(first)).",
                hint:
                    "The firmware may expect another framing: retry with --lan-reserved ffff or --lan-checksum digest.",
                detail: "\(evidence.unusableReplies.count) unusable replies"
            )
        }
        let detail =
            evidence.wrongPortSources.isEmpty
            ? nil : "ignored replies from other ports: \(evidence.wrongPortSources.map(\.description).sorted())"
        switch phase {
        case .awaitingToken, .idle:
            return ProvisioningError(
                .handoffNoToken,
                "Device \(id) at \(device.endpoint.host) answered the hello but not the token request.",
                hint: "Another client may be holding the device; close the Zhiting app, power-cycle the device, retry.",
                detail: detail
            )
        case .awaitingInfo:
            return ProvisioningError(
                .handoffNoInfo,
                "Device \(id) sent its token but did not answer get_prop.info.",
                hint:
                    "The firmware may expect another framing: retry with --lan-reserved ffff or --lan-checksum digest.",
                detail: detail
            )
        case .awaitingConfirmation, .finished:
            return ProvisioningError(
                .handoffNotConfirmed,
                "Device \(id) did not confirm set_prop.server; it may or may not have stored the server.",
                hint: "Run the hand-off again (it is safe to repeat) and check the device appears in the Zhiting app.",
                detail: detail
            )
        }
    }
}
