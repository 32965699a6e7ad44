/// A successful Thread reply on `prov-scan`; the status sits in the envelope, and anything but
/// `Success` throws ``ProtocommError/failureStatus(_:)``.
public enum ProtocommThreadScanResponse: Hashable, Sendable, ProtocommReply {
    /// The scan started (or, blocking, finished).
    case started
    /// Whether the scan finished and how many results it kept.
    case status(finished: Bool, resultCount: UInt32)
    /// One page of results.
    case results([ProtocommThreadNetwork])

    /// Parses a reply by its `msg`.
    public init(serializedBytes bytes: [UInt8]) throws(ProtocommError) {
        let payload = try WireThreadScanPayload(wireBytes: bytes)
        try payload.status.requireSuccess()
        switch payload.msg {
        case .typeRespScanThreadStart:
            self = .started
        case .typeRespScanThreadStatus:
            let status = payload.respScanThreadStatus
            self = .status(finished: status.scanFinished, resultCount: status.resultCount)
        case .typeRespScanThreadResult:
            self = .results(payload.respScanThreadResult.entries.map(ProtocommThreadNetwork.init))
        default:
            throw .unexpectedMessage(expected: "a Thread NetworkScanPayload response", received: "\(payload.msg)")
        }
    }

    var messageType: WireNetworkScanMsgType {
        switch self {
        case .started: .typeRespScanThreadStart
        case .status: .typeRespScanThreadStatus
        case .results: .typeRespScanThreadResult
        }
    }
}
