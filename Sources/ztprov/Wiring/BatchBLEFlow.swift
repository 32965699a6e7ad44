import BluFi
import Logging
import Provisioning
import Records

/// What `batch` hands every protocol's entry: the network every unit joins and how BluFi secures it.
struct BatchBLEOptions: Sendable {
    let settings: WiFiSettings
    let security: BluFiSecurityChoice
    /// `--min-security`, which every protocol's run checks before sending credentials.
    let minimumSecurity: SecurityLevel
    let logger: Logger
}

/// A protocol's run on one batch unit.
struct BatchBLEFlow: Sendable {
    /// How a unit comes to run the protocol.
    enum Heard: Sendable {
        /// The unit advertises the protocol's service (a unit that advertises none runs the first such
        /// protocol, BluFi).
        case byAdvertisement
        /// The unit's QR payload names the protocol; such a unit is found by its name or address alone.
        case byQRPayload
    }

    /// What a unit's run leaves for its hand-off.
    struct Outcome: Sendable {
        /// The Zhiting device ID the unit sent, if any.
        let deviceID: String?
        /// A line for the progress before the hand-off.
        var beforeHandoff: String?
    }

    let heard: Heard
    /// The journal step a connection begins, when the protocol's progress names none of its own.
    let sessionStep: String?
    /// Provisions the unit behind the link.
    let run: @Sendable (BatchAttemptContext, any BLELink) async throws -> Outcome
}
