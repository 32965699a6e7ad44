/// The 6-byte identity a Zhiting device puts in bytes 6..11 of every packet, normally its MAC.
///
/// Apps compare it as 12 lowercase hex digits (the form BluFi custom data and the SoftAP BSSID
/// produce), so that is the textual form; parsing also accepts upper case and `:`/`-` separated octets.
public struct ZhitingDeviceID: Hashable, Sendable, CustomStringConvertible {
    /// The six raw bytes, as they appear on the wire.
    public let bytes: [UInt8]

    /// The all-ones ID of the broadcast hello; no real device has it.
    public static let broadcast = ZhitingDeviceID(uncheckedBytes: [UInt8](repeating: 0xFF, count: 6))

    /// An ID from exactly six bytes; nil for any other count.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 6 else { return nil }
        self.bytes = bytes
    }

    /// Parses `a1b2c3d4e5f6`, `A1B2C3D4E5F6` or `a1:b2:c3:d4:e5:f6` (octets may drop a leading zero
    /// when separated, as iOS prints BSSIDs); nil when the text is not six octets.
    public init?(_ text: String) {
        let separated = text.split(whereSeparator: { $0 == ":" || $0 == "-" })
        let octets: [Substring]
        if separated.count == 6 {
            octets = separated
        } else if separated.count == 1, text.count == 12 {
            octets = stride(from: 0, to: 12, by: 2).map { offset in
                text.dropFirst(offset).prefix(2)
            }
        } else {
            return nil
        }
        var bytes: [UInt8] = []
        for octet in octets {
            guard (1...2).contains(octet.count), octet.allSatisfy(\.isHexDigit), let byte = UInt8(octet, radix: 16)
            else { return nil }
            bytes.append(byte)
        }
        self.bytes = bytes
    }

    init(uncheckedBytes: [UInt8]) {
        bytes = uncheckedBytes
    }

    /// Twelve lowercase hex digits, the form the apps, SA and SC use.
    public var description: String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return byte < 0x10 ? "0" + digits : digits
        }.joined()
    }
}
