/// The service data a device advertises under UUID `4677`: its state and capabilities, so a scan shows
/// them without connecting.
public struct ImprovServiceData: Sendable, Hashable {
    public let state: ImprovState
    public let capabilities: ImprovCapabilities

    public init(state: ImprovState, capabilities: ImprovCapabilities) {
        self.state = state
        self.capabilities = capabilities
    }

    /// Exactly six bytes: state, capabilities and four reserved bytes (ignored, for later revisions).
    public static func decode(_ bytes: [UInt8]) throws(ImprovError) -> ImprovServiceData {
        guard bytes.count == 6 else { throw .malformedServiceData(length: bytes.count) }
        guard let state = ImprovState(rawValue: bytes[0]) else { throw .unknownState(bytes[0]) }
        return ImprovServiceData(state: state, capabilities: ImprovCapabilities(rawValue: bytes[1]))
    }

    /// The six advertised bytes, reserved bytes zero.
    public var encoded: [UInt8] {
        [state.rawValue, capabilities.rawValue, 0, 0, 0, 0]
    }
}
