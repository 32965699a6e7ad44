public import CryptoPrimitives

/// Everything that can go wrong in the protocomm core, split the way h11 splits its errors: the
/// peer broke the protocol (``Origin/peer``) or the caller used the core wrongly (``Origin/caller``).
///
/// Message names in associated values are the protobuf message names of `Protos/` and ESP-IDF
/// (`SessionData`, `WiFiConfigPayload`, …), so a log line points straight at the message definition.
public enum ProtocommError: Error, Equatable, Sendable {
    // MARK: The peer violated the protocol

    /// The bytes are not a valid encoding of the named protobuf message.
    case malformedMessage(String)
    /// A valid message of the wrong kind for this step, e.g. a `Session_Response1` where
    /// `Session_Response0` was due.
    case unexpectedMessage(expected: String, received: String)
    /// The peer speaks another security scheme (`sec_ver` or payload oneof differs from ours).
    case securitySchemeMismatch(expected: Int, received: Int)
    /// The peer answered with a status other than `Success`.
    case failureStatus(ProtocommStatus)
    /// A field the protocol fixes in size arrived with another length (public keys, proofs, nonces).
    case invalidLength(field: String, length: Int)
    /// The key agreement is degenerate: small-order X25519 key, `A` or `B` ≡ 0 mod N, or `u` = 0.
    case degenerateKeyAgreement
    /// The client's verifier or proof does not match: wrong PoP (security 1) or wrong username or
    /// password (security 2). The real device closes the connection when it sees this.
    case credentialsMismatch
    /// The device's verifier or proof does not match ours: it does not hold the same PoP or
    /// SRP verifier, or someone altered the exchange.
    case deviceProofMismatch
    /// An encrypted body is shorter than the 16-byte GCM tag.
    case truncatedCiphertext(length: Int)
    /// The GCM tag did not verify: wrong key, wrong nonce (patch level mismatch) or altered data.
    case authenticationFailed
    /// A request arrived on an encrypted endpoint before a security session was established.
    case sessionNotEstablished
    /// The `proto-ver` reply is neither the manager's JSON with a `prov` object nor a version string.
    case invalidVersionInfo
    /// `proto-ver` names a security scheme this core does not implement.
    case unsupportedSecurityVersion(Int)
    /// A request body is empty or larger than the 4096 bytes the device's HTTP handler accepts.
    case invalidBodyLength(Int)

    // MARK: The caller misused the core

    /// ``ProtocommSession/receive(_:)`` was called before ``ProtocommSession/start()``.
    case handshakeNotStarted
    /// The handshake is already complete; start a new session to run it again.
    case handshakeAlreadyFinished
    /// The chosen security scheme needs credentials the caller did not give (PoP, or SRP username
    /// and password).
    case missingCredentials(ProtocommSecurityLevel)
    /// An SSID must be 1 to 32 bytes.
    case invalidSSIDLength(Int)
    /// A passphrase must be at most 63 bytes (the device's buffer is 64 with its terminator).
    case invalidPassphraseLength(Int)
    /// A BSSID must be empty or 6 bytes.
    case invalidBSSIDLength(Int)
    /// An SRP username must be 1 to 65535 bytes.
    case invalidUsernameLength(Int)
    /// The 32-bit GCM nonce counter of security 2 patch 1 ran out; the session must be restarted.
    case nonceCounterExhausted

    // MARK: Neither side

    /// OpenSSL failed on inputs the core had already validated.
    case cryptoFailure(CryptoError)

    /// Who is at fault.
    public enum Origin: Sendable {
        /// The device (or, on the device side, the client) broke the protocol.
        case peer
        /// The code calling the core broke its contract.
        case caller
        /// The crypto library failed.
        case library
    }

    /// Who is at fault for this error.
    public var origin: Origin {
        switch self {
        case .malformedMessage, .unexpectedMessage, .securitySchemeMismatch, .failureStatus, .invalidLength,
            .degenerateKeyAgreement, .credentialsMismatch, .deviceProofMismatch, .truncatedCiphertext,
            .authenticationFailed, .sessionNotEstablished, .invalidVersionInfo, .unsupportedSecurityVersion,
            .invalidBodyLength:
            .peer
        case .handshakeNotStarted, .handshakeAlreadyFinished, .missingCredentials, .invalidSSIDLength,
            .invalidPassphraseLength, .invalidBSSIDLength, .invalidUsernameLength, .nonceCounterExhausted:
            .caller
        case .cryptoFailure:
            .library
        }
    }
}
