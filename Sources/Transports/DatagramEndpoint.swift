/// An IPv4 address and UDP port: where a datagram goes or came from.
public struct DatagramEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// The four address bytes in network order.
    public let address: [UInt8]
    public let port: UInt16

    /// An endpoint from four address bytes; nil for any other count.
    public init?(address: [UInt8], port: UInt16) {
        guard address.count == 4 else { return nil }
        self.address = address
        self.port = port
    }

    /// Parses `192.0.2.7` or `192.0.2.7:5000`; the port defaults to `defaultPort`.
    public init?(parsing text: String, defaultPort: UInt16) {
        // The same strict reading as a device's HTTP endpoint: digits only, no port 0.
        guard let endpoint = DeviceEndpoint(text, defaultPort: defaultPort) else { return nil }
        self.address = endpoint.octets
        self.port = endpoint.port
    }

    /// The dotted-quad address without the port.
    public var host: String { address.map(String.init).joined(separator: ".") }

    /// `host:port`.
    public var description: String { "\(host):\(port)" }
}

/// Where a datagram is sent: one endpoint, or everyone on the link.
public enum DatagramDestination: Hashable, Sendable, CustomStringConvertible {
    case unicast(DatagramEndpoint)
    /// Every host on the link at this port; the link decides which broadcast addresses that means.
    case broadcast(port: UInt16)

    public var description: String {
        switch self {
        case .unicast(let endpoint): "\(endpoint)"
        case .broadcast(let port): "broadcast:\(port)"
        }
    }
}

/// One received datagram and who sent it.
public struct Datagram: Sendable, Equatable {
    public var bytes: [UInt8]
    public var source: DatagramEndpoint

    public init(bytes: [UInt8], source: DatagramEndpoint) {
        self.bytes = bytes
        self.source = source
    }
}
