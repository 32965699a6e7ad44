/// A complete message: the type and the reassembled plaintext of one or more frames.
public struct BluFiMessage: Sendable, Equatable {
    public var type: BluFiFrameType
    public var payload: [UInt8]

    public init(_ type: BluFiFrameType, _ payload: [UInt8] = []) {
        self.type = type
        self.payload = payload
    }
}
