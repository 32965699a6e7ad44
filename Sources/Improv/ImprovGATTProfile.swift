/// The GATT layout and advertisement of an Improv device (https://www.improv-wifi.com/ble/).
///
/// Subscribe to the state, error and RPC result characteristics before the first command: devices
/// answer by notification only.
public enum ImprovGATTProfile {
    /// The Improv service; devices advertise it so clients can find them.
    public static let serviceUUID = "00467768-6228-2272-4663-277478268000"
    /// The 16-bit UUID `4677` the advertised service data (state, capabilities) is keyed by.
    public static let serviceDataUUID = "00004677-0000-1000-8000-00805f9b34fb"
    /// The largest value one write to the RPC command characteristic carries; longer commands are
    /// split, because devices are only required to accept the 20 bytes of a default-MTU write.
    public static let maximumWriteLength = 20
}

/// The five characteristics of the Improv service.
public enum ImprovCharacteristic: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// One byte, ``ImprovState``; read and notify.
    case currentState = 0x01
    /// One byte, ``ImprovErrorState``; read and notify.
    case errorState = 0x02
    /// Client → device RPC frames (``ImprovRPCFrame``), written in pieces of at most 20 bytes.
    case rpcCommand = 0x03
    /// Device → client RPC result frames; notify.
    case rpcResult = 0x04
    /// One byte, ``ImprovCapabilities``; read.
    case capabilities = 0x05

    /// The 128-bit UUID: the service UUID with its last byte replaced by the raw value.
    public var uuid: String {
        "00467768-6228-2272-4663-2774782680" + (rawValue < 0x10 ? "0" : "") + String(rawValue, radix: 16)
    }

    /// The characteristic with this UUID (any letter case), if it is one of Improv's.
    public init?(uuid: String) {
        guard let match = Self.allCases.first(where: { $0.uuid == uuid.lowercased() }) else { return nil }
        self = match
    }

    public var description: String {
        switch self {
        case .currentState: "current state"
        case .errorState: "error state"
        case .rpcCommand: "RPC command"
        case .rpcResult: "RPC result"
        case .capabilities: "capabilities"
        }
    }
}
