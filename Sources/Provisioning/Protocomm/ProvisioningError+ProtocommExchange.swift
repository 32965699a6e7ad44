import Protocomm
import Transports

/// How a failed exchange with the device reads to a person, given what the flow was doing.
extension ProvisioningError {
    /// A transport failure (the device's connection, not its protocol) on `endpoint`.
    static func protocommExchange(
        _ error: any Error, endpoint: ProtocommEndpoint, phase: ProtocommPhase, on link: ProtocommPeer
    ) -> ProvisioningError {
        let detail = "\(error)"
        let (device, interface): (DeviceEndpoint, String)
        switch link {
        case .hotspot(let endpoint, let name): (device, interface) = (endpoint, name)
        case .ble(let address): return protocommBLEExchange(error, endpoint: endpoint, phase: phase, address: address)
        }
        let kind = (error as? any ProtocommExchangeFailure)?.exchangeFailureKind
        if let meaning = protocommFailureOnAnyLink(
            kind, endpoint: endpoint, phase: phase, detail: detail,
            requestFaults: [.endpointNotFound, .invalidRequest],
            on: link)
        {
            return meaning
        }
        switch kind {
        case .endpointNotFound:
            return ProvisioningError(
                .protocommEndpointMissing, "The firmware lacks the /\(endpoint) endpoint (404).",
                hint: endpoint == .scan
                    ? "Run without --list-networks."
                    : "Check --device-address points at the device's provisioning server, and that the device "
                        + "is in Wi-Fi provisioning mode.",
                detail: detail)
        case .interfaceUnavailable:
            return ProvisioningError(
                .softAPInterfaceUnusable, "Could not send on the hotspot's interface \(interface).",
                hint: "Run as root (pinning a socket to an interface needs CAP_NET_RAW) and check the interface "
                    + "still exists.",
                detail: detail)
        case .unexpectedResponse, .invalidRequest:
            return ProvisioningError(
                .protocommProtocolError, "The answer to /\(endpoint) is not a protocomm reply.",
                hint: "Check --device-address points at the device's provisioning server (\(device) here).",
                detail: detail)
        default:  // unreachable, a system failure, or no kind at all
            return ProvisioningError(
                .softAPDeviceUnreachable, "Could not reach the device at \(device) on the hotspot.",
                hint: "Check --device-address (stock firmware serves 192.168.4.1:80) and that the device is still "
                    + "in provisioning mode.",
                detail: detail)
        }
    }

    /// The failures that read the same over every link: once the credentials are out, a failed poll leaves
    /// the outcome unknown (unless the kind is one of the link's `requestFaults`, which say the request
    /// itself was wrong); a dropped connection and a timeout. `nil` for the kinds each link words itself.
    static func protocommFailureOnAnyLink(
        _ kind: ProtocommExchangeFailureKind?, endpoint: ProtocommEndpoint, phase: ProtocommPhase, detail: String,
        requestFaults: Set<ProtocommExchangeFailureKind>, on peer: ProtocommPeer
    ) -> ProvisioningError? {
        if case .awaitingConnection(let ssid) = phase, !(kind.map(requestFaults.contains) ?? false) {
            return .protocommOutcomeUnknown(ssid: ssid, detail: detail, on: peer)
        }
        switch kind {
        case .closedWithoutResponse, .sessionLost:
            return .protocommConnectionDropped(endpoint: endpoint, phase: phase, detail: detail, on: peer)
        case .timedOut:
            return .protocommDeviceTimeout(endpoint: endpoint, limit: nil, detail: detail)
        default:
            return nil
        }
    }

    /// The device closed the connection instead of answering: what that means depends on the phase.
    static func protocommConnectionDropped(
        endpoint: ProtocommEndpoint, phase: ProtocommPhase, detail: String, on peer: ProtocommPeer
    ) -> ProvisioningError {
        switch phase {
        case .handshake(.security2, awaitingVerdict: true):
            return ProvisioningError(
                .wrongPoP, "The device rejected the SRP username or password.",
                hint:
                    "Check --srp-username and the SRP password (--pop-file or --pop-env); the device drops the connection "
                    + "on wrong ones.",
                detail: detail)
        case .handshake(_, awaitingVerdict: true):
            return ProvisioningError(
                .wrongPoP, "The device rejected the proof of possession.",
                hint: "Check the PoP (--pop-file or --pop-env); the device drops the connection on a wrong one.",
                detail: detail)
        case .handshake:
            return ProvisioningError(
                .protocommSessionRejected, "The device closed the connection during the security handshake.",
                hint: "Check \(peer.securityOption) matches the device (auto reads it from /proto-ver) and the PoP "
                    + "or SRP credentials.",
                detail: detail)
        case .session(let security) where security.level == .security2:
            return ProvisioningError(
                .protocommConnectionClosed, "The device closed the connection instead of answering /\(endpoint).",
                hint: "It could not decrypt the request: its security 2 patch level may differ from what "
                    + "/proto-ver said; force the other one with --sec2-patch and run again.",
                detail: detail)
        case .describing, .session, .awaitingConnection, .awaitingAttach:
            return ProvisioningError(
                .protocommConnectionClosed, "The device closed the connection instead of answering /\(endpoint).",
                hint: "Put the device back in provisioning mode and run again; --verbose shows the transport's "
                    + "words.",
                detail: detail)
        }
    }

    /// The device sent something the protocomm core refused.
    static func protocommProtocol(
        _ error: ProtocommError, endpoint: ProtocommEndpoint, phase: ProtocommPhase, on peer: ProtocommPeer
    ) -> ProvisioningError {
        let detail = "\(error)"
        switch (phase, error) {
        case (.handshake, .deviceProofMismatch):
            return ProvisioningError(
                .protocommHandshakeFailed, "The device's proof did not match ours.",
                hint: "The device holds another PoP or SRP verifier than the one given, or something altered "
                    + "the exchange; check the credentials and run again.",
                detail: detail)
        case (.handshake, .securitySchemeMismatch(let expected, let received)):
            return ProvisioningError(
                .protocommHandshakeFailed, "The device answered in security \(received), not \(expected).",
                hint: "Use \(peer.securityOption) auto, or \(peer.securityOption) \(received).", detail: detail)
        case (.handshake(.security2, _), .invalidLength(field: "device_nonce", _)):
            return ProvisioningError(
                .protocommHandshakeFailed, "The device's security 2 nonce does not fit the forced patch level.",
                hint: "Let /proto-ver choose the security 2 patch level (no --sec2-patch), or force the other one.",
                detail: detail)
        case (.handshake, _):
            return ProvisioningError(
                .protocommHandshakeFailed, "The security handshake with the device failed.",
                hint: "Check \(peer.securityOption) matches the device (auto reads it from /proto-ver).",
                detail: detail)
        case (.session(let security), .authenticationFailed) where security.level == .security2:
            return ProvisioningError(
                .protocommHandshakeFailed, "The device's reply on /\(endpoint) did not decrypt.",
                hint: "Its security 2 patch level may differ from what /proto-ver said; force the other patch "
                    + "level with --sec2-patch and run again.",
                detail: detail)
        case (.describing, _):
            return ProvisioningError(
                .protocommProtocolError, "The answer to /proto-ver is not protocomm version information.",
                hint: peer.serviceCheck, detail: detail)
        default:
            return ProvisioningError(
                .protocommProtocolError, "The device's reply on /\(endpoint) did not make sense.",
                hint: "Put the device back in provisioning mode and run again; --verbose shows what was wrong.",
                detail: detail)
        }
    }

    /// A wait ran out.
    ///
    /// - Parameter limit: the flow's limit that ended it, or nil when the transport's own deadline did.
    static func protocommDeviceTimeout(endpoint: ProtocommEndpoint, limit: StepLimit.Ending?, detail: String? = nil)
        -> ProvisioningError
    {
        let message =
            switch limit {
            case .own(let duration), .enclosing(let duration):
                "The device did not answer /\(endpoint) within \(secondsText(duration))."
            case .handedDown: "The time limit ran out while waiting for the answer to /\(endpoint)."
            case nil: "The device did not answer /\(endpoint) in time."
            }
        return ProvisioningError(
            .protocommDeviceTimeout, message,
            hint: "Stay close to the device and run again; --timeout allows the whole run more time.", detail: detail)
    }
}

/// `3 s`, `0.5 s`: a limit as a person reads it, to a tenth of a second.
func secondsText(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let tenths = seconds * 10 + (attoseconds + 50_000_000_000_000_000) / 100_000_000_000_000_000
    return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
}
