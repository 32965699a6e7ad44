/// The device's 16-byte token, the secret that encrypts every request and reply after the key exchange.
///
/// Apps keep it as 32 hex digits and hex-decode it back; this keeps the raw bytes.
public struct ZhitingToken: Sendable, Equatable {
    /// The 16 raw bytes.
    public let bytes: [UInt8]

    /// Exactly 16 bytes; nil otherwise.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }
}
