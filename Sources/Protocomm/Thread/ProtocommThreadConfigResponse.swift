/// A successful Thread reply on `prov-config`. A status other than `Success` throws
/// ``ProtocommError/failureStatus(_:)``: `InvalidArgument` from a Wi-Fi-only build, or a dataset
/// larger than the device's buffer; `InternalError` for an apply without a dataset or a second apply.
public enum ProtocommThreadConfigResponse: Hashable, Sendable, ProtocommReply {
    /// The answer to "get status".
    case status(ProtocommThreadStatus)
    /// "Set config" stored the dataset.
    case datasetSet
    /// "Apply config" started attaching.
    case configApplied

    /// Parses a reply by its `msg`.
    public init(serializedBytes bytes: [UInt8]) throws(ProtocommError) {
        let payload = try WireThreadConfigPayload(wireBytes: bytes)
        switch payload.msg {
        case .typeRespGetThreadStatus:
            try payload.respGetThreadStatus.status.requireSuccess()
            self = .status(ProtocommThreadStatus(payload.respGetThreadStatus))
        case .typeRespSetThreadConfig:
            try payload.respSetThreadConfig.status.requireSuccess()
            self = .datasetSet
        case .typeRespApplyThreadConfig:
            try payload.respApplyThreadConfig.status.requireSuccess()
            self = .configApplied
        default:
            throw .unexpectedMessage(expected: "a Thread NetworkConfigPayload response", received: "\(payload.msg)")
        }
    }

    var messageType: WireNetworkConfigMsgType {
        switch self {
        case .status: .typeRespGetThreadStatus
        case .datasetSet: .typeRespSetThreadConfig
        case .configApplied: .typeRespApplyThreadConfig
        }
    }
}
