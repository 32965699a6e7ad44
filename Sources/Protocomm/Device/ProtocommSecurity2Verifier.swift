/// What a security 2 device stores instead of the password: the salt and the SRP verifier
/// v = g^x mod N, generated offline (esp_prov `--sec2_gen_cred`) and flashed into the firmware.
public struct ProtocommSecurity2Verifier: Hashable, Sendable {
    /// The salt, sent to the client verbatim.
    public let salt: [UInt8]
    /// v as 384 big-endian bytes.
    public let verifier: [UInt8]

    /// Uses a salt and verifier generated elsewhere.
    public init(salt: [UInt8], verifier: [UInt8]) {
        self.salt = salt
        self.verifier = verifier
    }

    /// Derives the verifier from the username and password, as the offline generator does.
    public init(username: String, password: String, salt: [UInt8]) {
        let exponent = SRP6a.passwordExponent(
            username: Array(username.utf8), password: Array(password.utf8), salt: salt)
        self.init(salt: salt, verifier: SRP6a.pad(SRP6a.publicValue(secret: exponent)))
    }
}
