/// A value of the error-state characteristic: no error, or the error the device reports.
public enum ImprovErrorState: Sendable, Equatable {
    case noError
    case error(ImprovDeviceError)

    /// Decodes exactly one byte; every byte value is meaningful (unassigned codes are kept).
    public static func decode(_ value: [UInt8]) throws(ImprovError) -> ImprovErrorState {
        guard value.count == 1 else { throw .malformedCharacteristicValue(.errorState, length: value.count) }
        return value[0] == 0 ? .noError : .error(ImprovDeviceError(code: value[0]))
    }
}

/// An error code a device reports on the error-state characteristic.
public enum ImprovDeviceError: Sendable, Hashable, CustomStringConvertible {
    /// 0x01: the RPC frame was malformed (length or checksum).
    case invalidRPCPacket
    /// 0x02: the device does not know the command.
    case unknownRPCCommand
    /// 0x03: the device took the credentials but could not join the network.
    case unableToConnect
    /// 0x04: the command needs authorization (a button press) and the device is not authorized.
    case notAuthorized
    /// 0x05: the device refused the hostname.
    case badHostname
    /// 0xFF: the device failed for a reason it does not name.
    case unknownError
    /// A code the specification does not assign.
    case unassigned(UInt8)

    public init(code: UInt8) {
        switch code {
        case 0x01: self = .invalidRPCPacket
        case 0x02: self = .unknownRPCCommand
        case 0x03: self = .unableToConnect
        case 0x04: self = .notAuthorized
        case 0x05: self = .badHostname
        case 0xFF: self = .unknownError
        default: self = .unassigned(code)
        }
    }

    /// The byte on the error-state characteristic.
    public var code: UInt8 {
        switch self {
        case .invalidRPCPacket: 0x01
        case .unknownRPCCommand: 0x02
        case .unableToConnect: 0x03
        case .notAuthorized: 0x04
        case .badHostname: 0x05
        case .unknownError: 0xFF
        case .unassigned(let code): code
        }
    }

    public var description: String {
        switch self {
        case .invalidRPCPacket: "invalid RPC packet"
        case .unknownRPCCommand: "unknown RPC command"
        case .unableToConnect: "unable to connect"
        case .notAuthorized: "not authorized"
        case .badHostname: "bad hostname"
        case .unknownError: "unknown error"
        case .unassigned(let code): "unassigned error code \(code)"
        }
    }
}
