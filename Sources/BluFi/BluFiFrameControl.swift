/// The frame-control byte: which optional parts a frame has and how to treat it.
public struct BluFiFrameControl: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The data field (including a fragment prefix) is encrypted; header and checksum are not.
    public static let encrypted = BluFiFrameControl(rawValue: 0x01)
    /// Two checksum bytes follow the data.
    public static let checksum = BluFiFrameControl(rawValue: 0x02)
    /// Sent by the device: ESP-IDF sets it on every frame it sends and never checks it on input.
    public static let fromDevice = BluFiFrameControl(rawValue: 0x04)
    /// The receiver must answer with an ACK frame carrying this frame's sequence number.
    public static let acknowledgementRequired = BluFiFrameControl(rawValue: 0x08)
    /// More fragments follow; the data starts with the 2-byte remaining-length prefix.
    public static let fragment = BluFiFrameControl(rawValue: 0x10)
}
