/// Where a device serves protocomm: an IPv4 address and a TCP port.
///
/// The device's address is configuration, never a literal inside a flow, so tests can point the same
/// flow at loopback and a user can override the address as esp_prov's `--service_name host:port` allows.
public struct DeviceEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The four address bytes, most significant first.
    public let octets: [UInt8]
    /// The TCP port.
    public let port: UInt16

    /// The address every ESP SoftAP gives itself (esp-netif's default), with protocomm's default HTTP port.
    public static let softAPDefault = DeviceEndpoint(192, 168, 4, 1, port: 80)

    /// Creates an endpoint from the four address bytes, most significant first.
    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, port: UInt16) {
        octets = [a, b, c, d]
        self.port = port
    }

    /// Parses `a.b.c.d` or `a.b.c.d:port` (port 80 when absent); nil for anything else.
    ///
    /// Strict on purpose: no leading zeros, no host names, so a typo cannot send traffic elsewhere.
    public init?(_ text: String, defaultPort: UInt16 = 80) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let fields = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        let bytes = fields.compactMap(Self.decimalOctet)
        guard fields.count == 4, bytes.count == 4 else { return nil }
        var port = defaultPort
        if parts.count == 2 {
            guard parts[1].allSatisfy(Self.isDigit), let given = UInt16(parts[1]), given != 0 else { return nil }
            port = given
        }
        self.init(bytes[0], bytes[1], bytes[2], bytes[3], port: port)
    }

    /// The dotted-quad address, such as `192.168.4.1`.
    public var host: String { octets.map(String.init).joined(separator: ".") }

    /// `host:port`, such as `192.168.4.1:80`.
    public var description: String { "\(host):\(port)" }

    private static func decimalOctet(_ field: Substring) -> UInt8? {
        guard (1...3).contains(field.count), field.allSatisfy(Self.isDigit) else { return nil }
        guard field.count == 1 || field.first != "0" else { return nil }
        return UInt8(field)
    }

    private static func isDigit(_ character: Character) -> Bool {
        character.isASCII && character.isNumber
    }
}
