/// A request on `prov-scan` (`WiFiScanPayload`), before encryption.
public enum ProtocommWiFiScanRequest: Hashable, Sendable {
    /// Start a scan; a start while one runs is a no-op success.
    case start(ProtocommWiFiScanOptions)
    /// Ask whether the scan finished and how many results it kept.
    case status
    /// Fetch `count` results from `startIndex`; past the end the device answers `InternalError`.
    case results(startIndex: UInt32, count: UInt32)

    /// The plaintext payload.
    public func serializedBytes() -> [UInt8] {
        var payload = WireWiFiScanPayload()
        switch self {
        case .start(let options):
            payload.msg = .typeCmdScanStart
            payload.cmdScanStart = options.wire
        case .status:
            payload.msg = .typeCmdScanStatus
            payload.cmdScanStatus = WireCmdScanStatus()
        case .results(let startIndex, let count):
            payload.msg = .typeCmdScanResult
            var command = WireCmdScanResult()
            command.startIndex = startIndex
            command.count = count
            payload.cmdScanResult = command
        }
        return payload.wireBytes
    }

    /// Parses a request by its `msg`, as the device does.
    public init(serializedBytes bytes: [UInt8]) throws(ProtocommError) {
        let payload = try WireWiFiScanPayload(wireBytes: bytes)
        switch payload.msg {
        case .typeCmdScanStart: self = .start(ProtocommWiFiScanOptions(payload.cmdScanStart))
        case .typeCmdScanStatus: self = .status
        case .typeCmdScanResult:
            self = .results(startIndex: payload.cmdScanResult.startIndex, count: payload.cmdScanResult.count)
        default: throw .unexpectedMessage(expected: "a WiFiScanPayload command", received: "\(payload.msg)")
        }
    }

    /// Parses the device's reply and checks that it answers this request.
    public func response(from bytes: [UInt8]) throws(ProtocommError) -> ProtocommWiFiScanResponse {
        try ProtocommWiFiScanResponse(serializedBytes: bytes, answering: expectedResponseType)
    }

    private var expectedResponseType: WireWiFiScanMsgType {
        switch self {
        case .start: .typeRespScanStart
        case .status: .typeRespScanStatus
        case .results: .typeRespScanResult
        }
    }
}
