import ArgumentParser
import Provisioning

/// `--pick`: which device `ble` takes when several match and nobody is asked.
enum DevicePick: String, ExpressibleByArgument, CaseIterable {
    /// The strongest signal, once the scan heard every device in range.
    case strongest
    /// The first device heard, at once.
    case first

    /// The choice rule's policy for what the command line said: `--device`, `--pick` or neither.
    static func policy(device: String?, pick: DevicePick?) -> BLEDevicePolicy {
        if device != nil { return .named }
        return switch pick {
        case .strongest: .strongest
        case .first: .first
        case nil: .unchosen
        }
    }
}
