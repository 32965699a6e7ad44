/// Why the Zhiting LAN core refused a datagram or a call.
///
/// The first group means the peer violated the protocol (or something else is talking on the port);
/// the last group means the caller misused the core.
public enum ZhitingLANError: Error, Equatable, Sendable {
    // MARK: The peer violated the protocol

    /// Fewer bytes arrived than the header (or its length field) promises.
    case truncatedPacket(declared: Int, received: Int)
    /// The datagram does not start with `21 31`.
    case badMagic(UInt16)
    /// More bytes arrived than the length field declares.
    case lengthMismatch(declared: Int, received: Int)
    /// Larger than any packet this protocol produces (see ``ZhitingPacket/maximumSize``).
    case oversizedPacket(Int)
    /// The payload is not AES-128-CBC under the expected secret (wrong key or damaged data).
    case undecryptablePayload
    /// The decrypted payload is not the JSON this protocol uses.
    case malformedJSON
    /// A token reply decrypted to something other than 16 bytes.
    case malformedToken(length: Int)
    /// The device answered with an error object instead of a result.
    case deviceRejected(code: Int?, message: String?)
    /// The `set_prop.server` reply carries no server and port to compare.
    case serverNotEchoed
    /// The device echoed a different server or port than it was given.
    case serverMismatch(expected: ZhitingServerEcho, echoed: ZhitingServerEcho)
    /// The target reports a Smart Assistant hub model, which does not take `set_prop.server`.
    case deviceIsSmartAssistant(model: String)

    // MARK: The caller misused the core

    /// A session key must be exactly 16 ASCII letters or digits.
    case invalidSessionKey
    /// A datagram was handed to a client that has not sent its token request yet.
    case clientNotStarted
}
