/// A complete message: the type and the reassembled plaintext of one or more frames.
public struct BluFiMessage: Sendable, Equatable {
    /// The type of the frame that completed the message.
    public var type: BluFiFrameType
    /// The plaintext content, without fragment prefixes.
    public var payload: [UInt8]

    /// A message of `type` carrying `payload`.
    public init(_ type: BluFiFrameType, _ payload: [UInt8] = []) {
        self.type = type
        self.payload = payload
    }
}
