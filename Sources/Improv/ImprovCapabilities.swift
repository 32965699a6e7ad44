/// The optional commands a device supports, from the capabilities characteristic or its service data.
public struct ImprovCapabilities: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Bit 0: the identify command (the device blinks or beeps).
    public static let identify = ImprovCapabilities(rawValue: 1 << 0)
    /// Bit 1: the device info command.
    public static let deviceInfo = ImprovCapabilities(rawValue: 1 << 1)
    /// Bit 2: the Wi-Fi scan command.
    public static let scanWiFi = ImprovCapabilities(rawValue: 1 << 2)
    /// Bit 3: the hostname command.
    public static let hostname = ImprovCapabilities(rawValue: 1 << 3)

    /// Decodes the capabilities characteristic: one byte, whose unassigned bits are kept but unused.
    public static func decode(_ value: [UInt8]) throws(ImprovError) -> ImprovCapabilities {
        guard value.count == 1 else { throw .malformedCharacteristicValue(.capabilities, length: value.count) }
        return ImprovCapabilities(rawValue: value[0])
    }

    public var description: String {
        let names = [
            (Self.identify, "identify"), (.deviceInfo, "device-info"), (.scanWiFi, "scan"), (.hostname, "hostname"),
        ]
        .filter { contains($0.0) }.map(\.1)
        return names.isEmpty ? "none" : names.joined(separator: ",")
    }
}
