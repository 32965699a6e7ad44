import Provisioning

/// One kind of secret a command can take, naming its options, environment variable and prompt.
protocol SecretKind {
    /// Prefix of the `--PREFIX-file` and `--PREFIX-env` options.
    static var optionPrefix: String { get }
    /// Variable read when neither option is given.
    static var defaultEnvironmentVariable: String { get }
    /// What the interactive prompt asks for.
    static var promptLabel: String { get }
    /// What to do about an empty secret of this kind.
    static var emptyHint: String { get }
    /// The rules of this kind beyond being text, checked wherever a secret of this kind is read.
    static func check(_ secret: Secret) throws(ProvisioningError)
}

extension SecretKind {
    static var emptyHint: String { "Put the secret on the first line of the file or in the variable." }
    static func check(_ secret: Secret) throws(ProvisioningError) {}
}

/// The target Wi-Fi network's password.
enum WiFiPasswordSecret: SecretKind {
    static let optionPrefix = "password"
    static let defaultEnvironmentVariable = "ZTPROV_WIFI_PASSWORD"
    static let promptLabel = "Wi-Fi password"
    static let emptyHint = "For a network without a password pass --open-network and no password."
}

/// The device's proof of possession (protocomm security 1) or SRP password (security 2).
enum ProofOfPossessionSecret: SecretKind {
    static let optionPrefix = "pop"
    static let defaultEnvironmentVariable = "ZTPROV_POP"
    static let promptLabel = "Proof of possession"
}

/// The password of the device's own hotspot.
enum HotspotPasswordSecret: SecretKind {
    static let optionPrefix = "ap-password"
    static let defaultEnvironmentVariable = "ZTPROV_AP_PASSWORD"
    static let promptLabel = "Device hotspot password"
    static let emptyHint = "For an open hotspot give no hotspot password at all."
}

/// The SC device access token used by the LAN hand-off.
enum AccessTokenSecret: SecretKind {
    static let optionPrefix = "access-token"
    static let defaultEnvironmentVariable = "ZTPROV_ACCESS_TOKEN"
    static let promptLabel = "SC access token"
}

/// The user's SC session cookie, exchanged for a device access token.
enum SCSessionSecret: SecretKind {
    static let optionPrefix = "sc-session"
    static let defaultEnvironmentVariable = "ZTPROV_SC_SESSION"
    static let promptLabel = "SC session cookie"
}

/// The Wi-Fi password to try next after the device rejected the first one (BLE protocomm devices that
/// can be reset).
enum RetryWiFiPasswordSecret: SecretKind {
    static let optionPrefix = "retry-password"
    static let defaultEnvironmentVariable = "ZTPROV_WIFI_RETRY_PASSWORD"
    static let promptLabel = "Second Wi-Fi password"

    /// The first password's rule: the device gets either.
    static func check(_ secret: Secret) throws(ProvisioningError) {
        try WiFiPassphrase.check(secret, code: .invalidOption, what: "The second Wi-Fi password")
    }
}
