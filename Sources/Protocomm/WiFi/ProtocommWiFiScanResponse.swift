/// A successful reply on `prov-scan`. The status sits in the envelope here; anything but
/// `Success` makes parsing throw ``ProtocommError/failureStatus(_:)``.
public enum ProtocommWiFiScanResponse: Hashable, Sendable, ProtocommReply {
    /// The scan started (or, for a blocking scan, finished).
    case started
    /// Whether the scan finished and how many results it kept (at most 16 on stock firmware).
    case status(finished: Bool, resultCount: UInt32)
    /// One page of results.
    case results([ProtocommWiFiNetwork])

    /// Parses a reply by its `msg`.
    public init(serializedBytes bytes: [UInt8]) throws(ProtocommError) {
        let payload = try WireWiFiScanPayload(wireBytes: bytes)
        try payload.status.requireSuccess()
        switch payload.msg {
        case .typeRespScanStart:
            self = .started
        case .typeRespScanStatus:
            self = .status(
                finished: payload.respScanStatus.scanFinished, resultCount: payload.respScanStatus.resultCount)
        case .typeRespScanResult:
            self = .results(payload.respScanResult.entries.map(ProtocommWiFiNetwork.init))
        default:
            throw .unexpectedMessage(expected: "a WiFiScanPayload response", received: "\(payload.msg)")
        }
    }

    /// The plaintext payload with `Success`.
    public func serializedBytes() -> [UInt8] {
        wirePayload(status: .success).wireBytes
    }

    /// The reply carrying `status`; the device side uses it to refuse a request.
    func wirePayload(status: WireStatus) -> WireWiFiScanPayload {
        var payload = WireWiFiScanPayload()
        payload.msg = messageType
        payload.status = status
        switch self {
        case .started:
            payload.respScanStart = WireRespScanStart()
        case .status(let finished, let resultCount):
            var response = WireRespScanStatus()
            response.scanFinished = finished
            response.resultCount = resultCount
            payload.respScanStatus = response
        case .results(let networks):
            var response = WireRespScanResult()
            response.entries = networks.map(\.wire)
            payload.respScanResult = response
        }
        return payload
    }

    var messageType: WireWiFiScanMsgType {
        switch self {
        case .started: .typeRespScanStart
        case .status: .typeRespScanStatus
        case .results: .typeRespScanResult
        }
    }
}
