/// A request on `prov-ctrl` (`WiFiCtrlPayload`, ESP-IDF 5.1 and later), before encryption.
public enum ProtocommWiFiControlRequest: Hashable, Sendable {
    /// Forget the failed credentials so new ones can be sent; valid only after a failed connection.
    case reset
    /// Start a new provisioning round; valid only on firmware that disabled auto-stop.
    case reprovision

    /// The plaintext payload.
    public func serializedBytes() -> [UInt8] {
        var payload = WireWiFiCtrlPayload()
        switch self {
        case .reset:
            payload.msg = .typeCmdCtrlReset
            payload.cmdCtrlReset = WireCmdCtrlReset()
        case .reprovision:
            payload.msg = .typeCmdCtrlReprov
            payload.cmdCtrlReprov = WireCmdCtrlReprov()
        }
        return payload.wireBytes
    }

    /// Parses a request by its `msg`, as the device does.
    public init(serializedBytes bytes: [UInt8]) throws(ProtocommError) {
        let payload = try WireWiFiCtrlPayload(wireBytes: bytes)
        switch payload.msg {
        case .typeCmdCtrlReset: self = .reset
        case .typeCmdCtrlReprov: self = .reprovision
        default: throw .unexpectedMessage(expected: "a WiFiCtrlPayload command", received: "\(payload.msg)")
        }
    }

    /// Parses the device's reply and checks that it answers this request.
    public func response(from bytes: [UInt8]) throws(ProtocommError) -> ProtocommWiFiControlResponse {
        let expected: ProtocommWiFiControlResponse = self == .reset ? .reset : .reprovision
        return try ProtocommWiFiControlResponse(serializedBytes: bytes, answering: expected.messageType)
    }
}
