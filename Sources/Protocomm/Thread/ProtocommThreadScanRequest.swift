/// A Thread request on `prov-scan` (`NetworkScanPayload`, msg 6–11), before encryption.
public enum ProtocommThreadScanRequest: Hashable, Sendable {
    /// Start a scan on the channels of `channelMask` (0: all); `blocking` answers when it is done.
    case start(blocking: Bool, channelMask: UInt32)
    /// Ask whether the scan finished and how many results it kept.
    case status
    /// Fetch `count` results from `startIndex`.
    case results(startIndex: UInt32, count: UInt32)

    /// The plaintext payload.
    public func serializedBytes() -> [UInt8] {
        var payload = WireThreadScanPayload()
        switch self {
        case .start(let blocking, let channelMask):
            payload.msg = .typeCmdScanThreadStart
            var command = WireCmdScanThreadStart()
            command.blocking = blocking
            command.channelMask = channelMask
            payload.cmdScanThreadStart = command
        case .status:
            payload.msg = .typeCmdScanThreadStatus
            payload.cmdScanThreadStatus = WireCmdScanThreadStatus()
        case .results(let startIndex, let count):
            payload.msg = .typeCmdScanThreadResult
            var command = WireCmdScanThreadResult()
            command.startIndex = startIndex
            command.count = count
            payload.cmdScanThreadResult = command
        }
        return payload.wireBytes
    }

    /// Parses the device's reply and checks that it answers this request.
    public func response(from bytes: [UInt8]) throws(ProtocommError) -> ProtocommThreadScanResponse {
        try ProtocommThreadScanResponse(serializedBytes: bytes, answering: expectedResponseType)
    }

    private var expectedResponseType: WireNetworkScanMsgType {
        switch self {
        case .start: .typeRespScanThreadStart
        case .status: .typeRespScanThreadStatus
        case .results: .typeRespScanThreadResult
        }
    }
}
