/// A command the client sends, with its checked arguments.
///
/// Credentials and names are validated here so a mistake is reported before anything is written.
public enum ImprovRequest: Sendable, Hashable, CustomStringConvertible {
    case sendWiFiSettings(ImprovCredentials)
    case identify
    case deviceInfo
    case scanWiFiNetworks
    /// `nil` asks for the current hostname.
    case hostname([UInt8]?)
    /// `nil` asks for the current device name.
    case deviceName([UInt8]?)

    public var command: ImprovCommand {
        switch self {
        case .sendWiFiSettings: .sendWiFiSettings
        case .identify: .identify
        case .deviceInfo: .deviceInfo
        case .scanWiFiNetworks: .scanWiFiNetworks
        case .hostname: .hostname
        case .deviceName: .deviceName
        }
    }

    /// Whether the device must be authorized (a button press) to accept this request.
    public var needsAuthorization: Bool {
        switch self {
        case .sendWiFiSettings, .hostname: true
        case .deviceName(let name): name != nil
        case .identify, .deviceInfo, .scanWiFiNetworks: false
        }
    }

    /// Whether the device answers with an RPC result (identify is the only one that does not).
    public var expectsResult: Bool {
        self != .identify
    }

    /// The encoded RPC frame.
    public func frame() throws(ImprovError) -> ImprovRPCFrame {
        let strings: [[UInt8]] =
            switch self {
            case .sendWiFiSettings(let credentials): [credentials.ssid, credentials.password]
            case .identify, .deviceInfo, .scanWiFiNetworks: []
            case .hostname(let name), .deviceName(let name): name.map { [$0] } ?? []
            }
        return try ImprovRPCFrame(command: command.rawValue, data: ImprovStringList.encode(strings))
    }

    /// Checks a hostname against RFC 1123 as Improv asks: letters, digits and inner hyphens, 1–63
    /// bytes per label, and short enough to fit the frame's one length byte with its prefix.
    public static func validatedHostname(_ name: String) throws(ImprovError) -> [UInt8] {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= ImprovRPCFrame.maximumDataLength - 1 else { throw .invalidHostname }
        for label in bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-"),
                label.allSatisfy({ isASCIILetterOrDigit($0) || $0 == UInt8(ascii: "-") })
            else { throw .invalidHostname }
        }
        return bytes
    }

    /// A device name is free UTF-8 text; it must not be empty and must fit the frame.
    public static func validatedDeviceName(_ name: String) throws(ImprovError) -> [UInt8] {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= ImprovRPCFrame.maximumDataLength - 1 else { throw .invalidDeviceName }
        return bytes
    }

    public var description: String {
        switch self {
        case .sendWiFiSettings(let credentials): "send Wi-Fi settings (\(credentials))"
        case .hostname(nil): "get hostname"
        case .hostname(.some(let name)): "set hostname \(String(decoding: name, as: UTF8.self))"
        case .deviceName(nil): "get device name"
        case .deviceName(.some(let name)): "set device name \(String(decoding: name, as: UTF8.self))"
        default: command.description
        }
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
