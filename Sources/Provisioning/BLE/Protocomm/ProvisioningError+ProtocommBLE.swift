import Protocomm
import Transports

/// How a failed protocomm exchange over BLE reads to a person.
extension ProvisioningError {
    /// A GATT failure on `endpoint`: `protocomm_ble` drops the link when its handler refuses a request, so a
    /// lost link means what a closed HTTP connection means; a refused access means the link needs pairing.
    static func protocommBLEExchange(
        _ error: any Error, endpoint: ProtocommEndpoint, phase: ProtocommPhase, address: String
    ) -> ProvisioningError {
        let detail = "\(error)"
        let failure = error as? ProtocommGATTExchangeError
        if failure?.gattFailureKind == .insufficientSecurity {
            return ProvisioningError(
                .blePairingFailed,
                "The device at \(address) refuses /\(endpoint) until the link is paired, and pairing "
                    + "did not succeed.",
                hint: "ztprov pairs \"Just Works\" by itself; if the device asks for a passkey or refuses, put it "
                    + "in pairing mode, or pair with `bluetoothctl pair \(address)` first.",
                detail: detail)
        }
        let kind = failure?.exchangeFailureKind ?? (error as? any ProtocommExchangeFailure)?.exchangeFailureKind
        if let meaning = protocommFailureOnAnyLink(
            kind, endpoint: endpoint, phase: phase, detail: detail, requestFaults: [.endpointNotFound],
            on: .ble(address: address))
        {
            return meaning
        }
        switch kind {
        case .endpointNotFound:
            return ProvisioningError(
                .protocommEndpointMissing, "The device's provisioning service has no \(endpoint) endpoint.",
                hint: endpoint == .scan
                    ? "Run without --list-networks."
                    : ProtocommPeer.ble(address: address).serviceCheck,
                detail: detail)
        case .invalidRequest, .unexpectedResponse:
            return ProvisioningError(
                .protocommProtocolError, "The device refused the value written to /\(endpoint).",
                hint: "Run again with --verbose; the device may limit attribute lengths below what protocomm needs.",
                detail: detail)
        default:  // unreachable, no usable interface, a system failure, or no kind at all
            return ProvisioningError(
                .bleRefused, "The BLE stack refused /\(endpoint) on the device at \(address).",
                hint: "Keep the device powered and close to the adapter, then run again; --verbose shows bluetoothd's "
                    + "words.",
                detail: detail)
        }
    }
}
