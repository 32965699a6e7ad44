import DBus
public import Transports

/// How bluetoothd's answers to `ReadValue` and `WriteValue` read as GATT failures.
///
/// bluetoothd turns the ATT errors for missing authentication or encryption (0x05, 0x0C, 0x0F) into
/// `NotPermitted` "Not paired", ATT 0x08 into `NotAuthorized`, and other ATT errors into `Failed`
/// "Operation failed with ATT error: 0xNN" (`src/gatt-client.c`).
extension BlueZError: GATTFailure {
    public var gattFailureKind: GATTFailureKind {
        switch self {
        case .linkLost, .notConnected, .doesNotExist:
            .linkLost
        case .notAuthorized, .pairingFailed:
            .insufficientSecurity
        case .notPermitted(let error):
            BlueZQuirks.isNotPaired(error.message) ? .insufficientSecurity : .notPermitted
        case .failed(let reason, _):
            BlueZQuirks.attError(in: reason).map(Self.kind(ofATTError:)) ?? .other
        case .invalidArguments:
            .invalidValue
        case .timedOut:
            .timedOut
        default:
            .other
        }
    }

    private static func kind(ofATTError code: UInt8) -> GATTFailureKind {
        switch code {
        case 0x05, 0x08, 0x0C, 0x0F: .insufficientSecurity
        case 0x02, 0x03: .notPermitted
        case 0x07, 0x0D: .invalidValue
        case 0x04, 0x80...0x9F: .rejectedByPeer
        default: .other
        }
    }
}
