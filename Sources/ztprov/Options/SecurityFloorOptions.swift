import ArgumentParser
import Records

/// `--min-security` (ble, softap, batch and station profiles): the least security a device may run, checked
/// once it is negotiated and before any credential is sent.
struct SecurityFloorOptions: ParsableArguments {
    /// The levels as the option spells them.
    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case none
        case encrypted
        case authenticated

        var level: SecurityLevel {
            switch self {
            case .none: .none
            case .encrypted: .encrypted
            case .authenticated: .authenticated
            }
        }
    }

    @Option(
        name: .customLong("min-security"),
        help: ArgumentHelp(
            "Refuse a device whose security is below: none, encrypted (credentials travel encrypted) or "
                + "authenticated (and the device proved it is the one meant: a PoP, security 2, Improv "
                + "authorization). Default: none.",
            valueName: "level"))
    var choice: Choice = .none

    var minimum: SecurityLevel { choice.level }
}
