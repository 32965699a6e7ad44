/// What a characteristic allows, as the characteristic declaration's properties byte says
/// (Bluetooth Core 5.4, Vol 3, Part G, 3.3.1.1).
public struct GATTCharacteristicProperties: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// The value may be broadcast in advertisements.
    public static let broadcast = GATTCharacteristicProperties(rawValue: 0x01)
    /// The value may be read.
    public static let read = GATTCharacteristicProperties(rawValue: 0x02)
    /// The value may be written without a response (ATT Write Command).
    public static let writeWithoutResponse = GATTCharacteristicProperties(rawValue: 0x04)
    /// The value may be written with a response (ATT Write Request, or prepare/execute when long).
    public static let write = GATTCharacteristicProperties(rawValue: 0x08)
    /// The value may be notified.
    public static let notify = GATTCharacteristicProperties(rawValue: 0x10)
    /// The value may be indicated.
    public static let indicate = GATTCharacteristicProperties(rawValue: 0x20)
    /// The value may be written with a signed write command.
    public static let authenticatedSignedWrites = GATTCharacteristicProperties(rawValue: 0x40)
    /// More properties are in the extended-properties descriptor.
    public static let extendedProperties = GATTCharacteristicProperties(rawValue: 0x80)
}
