/// The network a device should join. Its description never shows the password.
public struct ImprovCredentials: Sendable, Hashable, CustomStringConvertible {
    public let ssid: [UInt8]
    public let password: [UInt8]

    /// An SSID is 1–32 bytes (IEEE 802.11); a password is empty (open network), a passphrase of 8–63
    /// bytes, or 64 hexadecimal digits, as WPA2 allows.
    public init(ssid: [UInt8], password: [UInt8]) throws(ImprovError) {
        guard (1...32).contains(ssid.count) else { throw .invalidSSID(length: ssid.count) }
        let isHexKey = password.count == 64 && password.allSatisfy { Self.isHexDigit($0) }
        guard password.isEmpty || (8...63).contains(password.count) || isHexKey else {
            throw .invalidPassword(length: password.count)
        }
        self.ssid = ssid
        self.password = password
    }

    public var description: String {
        "SSID \(String(decoding: ssid, as: UTF8.self)), password \(password.isEmpty ? "none" : "hidden")"
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}
