import ArgumentParser
import Protocomm
import Provisioning

/// `--security` (softap, batch) and `--sec-ver` (ble): the protocomm session security, or `auto` as the device's
/// proto-ver says.
enum ProtocommSecurityChoice: String, ExpressibleByArgument, CaseIterable {
    case auto
    case security0 = "0"
    case security1 = "1"
    case security2 = "2"

    /// The session options: the PoP serves as security 1's proof or security 2's SRP password, and
    /// with `auto` as whichever the device's /proto-ver asks for.
    func options(
        proofOfPossession pop: Secret?, srpUsername: String, patch: ProtocommSecurity2Patch?
    ) -> ProtocommSecurityOptions {
        ProtocommSecurityOptions(
            level: level, patch: patch, proofOfPossession: level == .security2 ? nil : pop,
            srpUsername: srpUsername, srpPassword: level == .security1 ? nil : pop)
    }

    /// The forced level, nil for `auto`.
    var level: ProtocommSecurityLevel? {
        switch self {
        case .auto: nil
        case .security0: .security0
        case .security1: .security1
        case .security2: .security2
        }
    }
}
