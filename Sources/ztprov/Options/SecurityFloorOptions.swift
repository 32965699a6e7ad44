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
            "Refuse a device whose negotiated security is below this level before sending it anything: none, "
                + "encrypted (the credentials travel encrypted) or authenticated (and the device proved it is the "
                + "one meant: a PoP or security 2).",
            valueName: "level"))
    var choice: Choice = .none

    var minimum: SecurityLevel { choice.level }
}
