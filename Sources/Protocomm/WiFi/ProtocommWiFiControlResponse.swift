/// A successful reply on `prov-ctrl`; a refusal (`InternalError` when the device is not in a state
/// that allows the command) makes parsing throw ``ProtocommError/failureStatus(_:)``.
public enum ProtocommWiFiControlResponse: Hashable, Sendable, ProtocommReply {
    /// The device forgot the failed credentials.
    case reset
    /// The device is ready for a new provisioning round.
    case reprovision

    /// Parses a reply by its `msg`.
    public init(serializedBytes bytes: [UInt8]) throws(ProtocommError) {
        let payload = try WireWiFiCtrlPayload(wireBytes: bytes)
        try payload.status.requireSuccess()
        switch payload.msg {
        case .typeRespCtrlReset: self = .reset
        case .typeRespCtrlReprov: self = .reprovision
        default: throw .unexpectedMessage(expected: "a WiFiCtrlPayload response", received: "\(payload.msg)")
        }
    }

    /// The plaintext payload with `Success`.
    public func serializedBytes() -> [UInt8] {
        wirePayload(status: .success).wireBytes
    }

    /// The reply carrying `status`; the device side uses it to refuse a request.
    func wirePayload(status: WireStatus) -> WireWiFiCtrlPayload {
        var payload = WireWiFiCtrlPayload()
        payload.msg = messageType
        payload.status = status
        switch self {
        case .reset: payload.respCtrlReset = WireRespCtrlReset()
        case .reprovision: payload.respCtrlReprov = WireRespCtrlReprov()
        }
        return payload
    }

    var messageType: WireWiFiCtrlMsgType {
        switch self {
        case .reset: .typeRespCtrlReset
        case .reprovision: .typeRespCtrlReprov
        }
    }
}
