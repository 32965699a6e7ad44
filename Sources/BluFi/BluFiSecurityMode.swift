/// The SET_SEC_MODE byte: which of the device's own later frames get a checksum or encryption.
///
/// High nibble for control frames, low nibble for data frames; in each, bit 0 = checksum, bit 1 =
/// encrypt. The official clients send `0x03`. ESP-IDF never encrypts control frames, whatever is asked.
public struct BluFiSecurityMode: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Data frames (except NEG and ERROR) carry a checksum.
    public static let dataChecksum = BluFiSecurityMode(rawValue: 0x01)
    /// Data frames (except NEG and ERROR) are encrypted.
    public static let dataEncryption = BluFiSecurityMode(rawValue: 0x02)
    /// Control frames carry a checksum.
    public static let controlChecksum = BluFiSecurityMode(rawValue: 0x10)
    /// Defined by the protocol but never implemented by ESP-IDF's device side.
    public static let controlEncryption = BluFiSecurityMode(rawValue: 0x20)
}
