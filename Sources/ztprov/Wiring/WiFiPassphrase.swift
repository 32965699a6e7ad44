import Provisioning

/// The target network's password as every path takes it: from its secret source, or none at all
/// when `--open-network` says so; never an empty password standing for "open".
///
/// The rule is WPA's, counted in bytes as the device stores them: 8 to 63 bytes of passphrase, or 64
/// hex digits of raw key, without control characters (WPA's passphrase is printable text; a stray line
/// ending or tab in a password file is the usual cause). It is checked before any radio or bus is touched.
enum WiFiPassphrase {
    static let passphraseBytes = 8...63
    static let rawKeyDigits = 64

    /// The password to send: empty for an open network, else read from `source` and checked.
    static func resolve(
        _ source: SecretOptions<WiFiPasswordSecret>, openNetwork: Bool, code: ErrorCode,
        environment: [String: String], prompt: (String) -> String? = SecretPrompt.ask
    ) throws(ProvisioningError) -> Secret {
        if openNetwork {
            guard !source.isGiven else {
                throw ProvisioningError(
                    .invalidOption, "--open-network and a Wi-Fi password were both given.",
                    hint: "Drop --open-network, or the --password-file/--password-env option.")
            }
            return Secret("")
        }
        let secret = try source.require(environment: environment, prompt: prompt)
        try check(secret, code: code, what: "The Wi-Fi password")
        return secret
    }

    /// WPA's rule for `secret`, whatever its role (the password, the one to retry with): `what` names
    /// it in the message, which gives its length, never its text.
    static func check(_ secret: Secret, code: ErrorCode, what: String) throws(ProvisioningError) {
        let bytes = Array(secret.revealed().utf8)
        let isRawKey =
            bytes.count == rawKeyDigits && bytes.allSatisfy { $0 < 0x80 && Character(UnicodeScalar($0)).isHexDigit }
        guard passphraseBytes.contains(bytes.count) || isRawKey else {
            throw ProvisioningError(
                code, "\(what) is \(bytes.count) bytes long; WPA needs 8 to 63 bytes, or 64 hex digits.",
                hint: "Check the password file or variable; characters outside ASCII take more than one byte.")
        }
        if let control = bytes.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw ProvisioningError(
                .wifiPasswordCharacters,
                "\(what) holds a control character (byte \(control + 1) of \(bytes.count)), which a WPA passphrase "
                    + "cannot; the access point would never accept it.",
                hint: ErrorCode.wifiPasswordCharacters.hint)
        }
    }
}
