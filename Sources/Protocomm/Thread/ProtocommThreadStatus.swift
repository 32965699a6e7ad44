/// The device's answer to "get Thread status" (`RespGetThreadStatus`), in the component's terms.
public enum ProtocommThreadStatus: Hashable, Sendable {
    /// Still attaching (also the state before any dataset was applied).
    case attaching
    /// Attached to the network the dataset describes.
    case attached(ProtocommThreadAttachment)
    /// Defined by the proto; network_provisioning 1.2 reports a failed attach as ``failed(_:)`` instead.
    case detached
    /// Gave up: the dataset did not parse, or no network answered within the device's 20 s.
    case failed(ProtocommThreadFailureReason)
    /// A state this build does not know, kept as its wire value.
    case unrecognized(state: Int)
}

/// Why a Thread attach failed (`ThreadAttachFailedReason`).
public enum ProtocommThreadFailureReason: Hashable, Sendable, CustomStringConvertible {
    /// OpenThread could not parse the dataset.
    case datasetInvalid
    /// The device found no network to attach to with the dataset.
    case networkNotFound
    /// A reason this build does not know.
    case unrecognized(Int)

    public var description: String {
        switch self {
        case .datasetInvalid: "dataset invalid"
        case .networkNotFound: "network not found"
        case .unrecognized(let value): "reason \(value)"
        }
    }
}

/// The network the device attached to, as it reports it (`ThreadAttachState`).
public struct ProtocommThreadAttachment: Hashable, Sendable {
    public var networkName: String
    public var panID: UInt32
    /// The extended PAN ID's 8 bytes.
    public var extendedPANID: [UInt8]
    public var channel: UInt32

    public init(networkName: String, panID: UInt32, extendedPANID: [UInt8], channel: UInt32) {
        self.networkName = networkName
        self.panID = panID
        self.extendedPANID = extendedPANID
        self.channel = channel
    }
}

extension ProtocommThreadStatus {
    /// Reads the state and its oneof detail; a missing detail reads as proto3's default.
    init(_ wire: WireRespGetThreadStatus) {
        switch wire.threadState {
        case .attaching:
            self = .attaching
        case .attached:
            let attached = wire.threadAttached
            self = .attached(
                ProtocommThreadAttachment(
                    networkName: attached.name, panID: attached.panID, extendedPANID: attached.extPanID.byteArray,
                    channel: attached.channel))
        case .detached:
            self = .detached
        case .attachingFailed:
            // DatasetInvalid is the enum's zero value, so a failure without a decoded reason reads as it.
            switch wire.threadFailReason {
            case .datasetInvalid: self = .failed(.datasetInvalid)
            case .threadNetworkNotFound: self = .failed(.networkNotFound)
            case .UNRECOGNIZED(let value): self = .failed(.unrecognized(value))
            }
        case .UNRECOGNIZED(let value):
            self = .unrecognized(state: value)
        }
    }
}
