/// The provisioning state a device reports on the current-state characteristic and in its service data.
///
/// A device that needs a physical interaction (a button press) starts in ``authorizationRequired``;
/// one that does not starts ``authorized``. After a successful provisioning it is ``provisioned`` and
/// stops its Improv service.
public enum ImprovState: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case authorizationRequired = 0x01
    case authorized = 0x02
    case provisioning = 0x03
    case provisioned = 0x04

    /// The state a characteristic value of exactly one known byte holds.
    public static func decode(_ value: [UInt8]) throws(ImprovError) -> ImprovState {
        guard value.count == 1 else { throw .malformedCharacteristicValue(.currentState, length: value.count) }
        guard let state = ImprovState(rawValue: value[0]) else { throw .unknownState(value[0]) }
        return state
    }

    public var description: String {
        switch self {
        case .authorizationRequired: "authorization required"
        case .authorized: "authorized"
        case .provisioning: "provisioning"
        case .provisioned: "provisioned"
        }
    }
}
