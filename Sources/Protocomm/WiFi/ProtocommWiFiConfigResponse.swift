/// A successful reply on `prov-config`. A reply whose `status` is not `Success` never becomes a
/// value: parsing throws ``ProtocommError/failureStatus(_:)`` (e.g. `InvalidArgument` for an
/// over-long SSID, `InternalError` for a second apply).
public enum ProtocommWiFiConfigResponse: Hashable, Sendable, ProtocommReply {
    /// The answer to "get status".
    case status(ProtocommWiFiStatus)
    /// "Set config" stored the credentials.
    case configSet
    /// "Apply config" started joining.
    case configApplied

    /// Parses a reply by its `msg`.
    public init(serializedBytes bytes: [UInt8]) throws(ProtocommError) {
        let payload = try WireWiFiConfigPayload(wireBytes: bytes)
        switch payload.msg {
        case .typeRespGetStatus:
            try payload.respGetStatus.status.requireSuccess()
            self = .status(ProtocommWiFiStatus(payload.respGetStatus))
        case .typeRespSetConfig:
            try payload.respSetConfig.status.requireSuccess()
            self = .configSet
        case .typeRespApplyConfig:
            try payload.respApplyConfig.status.requireSuccess()
            self = .configApplied
        default:
            throw .unexpectedMessage(expected: "a WiFiConfigPayload response", received: "\(payload.msg)")
        }
    }

    /// The plaintext payload with `Success`.
    public func serializedBytes() -> [UInt8] {
        wirePayload(status: .success).wireBytes
    }

    /// The reply carrying `status`; the device side uses it to refuse a request.
    func wirePayload(status: WireStatus) -> WireWiFiConfigPayload {
        var payload = WireWiFiConfigPayload()
        payload.msg = messageType
        switch self {
        case .status(let wifiStatus):
            var response = wifiStatus.wire
            response.status = status
            payload.respGetStatus = response
        case .configSet:
            var response = WireRespSetConfig()
            response.status = status
            payload.respSetConfig = response
        case .configApplied:
            var response = WireRespApplyConfig()
            response.status = status
            payload.respApplyConfig = response
        }
        return payload
    }

    var messageType: WireWiFiConfigMsgType {
        switch self {
        case .status: .typeRespGetStatus
        case .configSet: .typeRespSetConfig
        case .configApplied: .typeRespApplyConfig
        }
    }
}
