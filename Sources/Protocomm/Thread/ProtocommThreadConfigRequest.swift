#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A Thread request on `prov-config` (`NetworkConfigPayload`, msg 6–11), before encryption.
public enum ProtocommThreadConfigRequest: Hashable, Sendable {
    /// Ask for the Thread state; poll it after ``applyConfig``.
    case getStatus
    /// Store the active operational dataset; takes effect on ``applyConfig``.
    case setDataset(ThreadDataset)
    /// Start attaching with the stored dataset.
    case applyConfig

    /// The plaintext payload, with the oneof member set as the device expects.
    public func serializedBytes() -> [UInt8] {
        var payload = WireThreadConfigPayload()
        switch self {
        case .getStatus:
            payload.msg = .typeCmdGetThreadStatus
            payload.cmdGetThreadStatus = WireCmdGetThreadStatus()
        case .setDataset(let dataset):
            payload.msg = .typeCmdSetThreadConfig
            var command = WireCmdSetThreadConfig()
            command.dataset = Data(dataset.tlvs)
            payload.cmdSetThreadConfig = command
        case .applyConfig:
            payload.msg = .typeCmdApplyThreadConfig
            payload.cmdApplyThreadConfig = WireCmdApplyThreadConfig()
        }
        return payload.wireBytes
    }

    /// Parses the device's reply and checks that it answers this request.
    public func response(from bytes: [UInt8]) throws(ProtocommError) -> ProtocommThreadConfigResponse {
        try ProtocommThreadConfigResponse(serializedBytes: bytes, answering: expectedResponseType)
    }

    private var expectedResponseType: WireNetworkConfigMsgType {
        switch self {
        case .getStatus: .typeRespGetThreadStatus
        case .setDataset: .typeRespSetThreadConfig
        case .applyConfig: .typeRespApplyThreadConfig
        }
    }
}
