public import CryptoPrimitives

/// Everything that can go wrong in a BluFi session, split the way h11 splits its errors: the peer broke
/// the protocol, the session ended without success, or the caller misused the core.
public enum BluFiError: Error, Sendable, Equatable {
    // MARK: The peer violated the protocol: frames

    /// A write or notification shorter than the 4-byte header.
    case truncatedFrame(byteCount: Int)
    /// The byte count differs from what the header's data length (and checksum flag) announce.
    case frameLengthMismatch(expected: Int, received: Int)
    /// A frame skipped or repeated a sequence number: the session cannot recover (reconnect).
    case sequenceMismatch(expected: UInt8, received: UInt8)
    /// An encrypted frame arrived before a key was negotiated.
    case encryptedBeforeNegotiation
    /// The CRC over the plaintext does not match: corruption or, far more often, a wrong key.
    case checksumMismatch(computed: UInt16, received: UInt16)
    /// A fragment too short to hold its 2-byte length prefix.
    case fragmentWithoutLengthPrefix
    /// A first fragment announcing an empty message.
    case fragmentDeclaresZeroLength
    /// The fragments add up to more, or in the end to other, than the first one announced.
    case fragmentLengthMismatch(declared: Int, assembled: Int)
    /// A first fragment arrived while an earlier message was still open (ESP-IDF `MSG_STATE_ERROR`).
    case fragmentRestarted

    // MARK: The peer violated the protocol: messages

    /// A type byte that names none of the subtypes ESP-IDF defines.
    case unknownFrameType(BluFiFrameType)
    /// A known message that makes no sense in this direction or at this point of the session.
    case unexpectedFrame(BluFiFrameType)
    /// A known message whose payload does not parse.
    case malformedPayload(BluFiFrameType)
    /// The peer's Diffie–Hellman public key is out of range (0, 1, p − 1, ≥ p) or of the wrong width.
    case invalidPublicKey
    /// An ACK for another frame than the one waiting for it.
    case unexpectedAcknowledgement(expected: UInt8, received: UInt8)
    /// The device sent an ERROR frame.
    case deviceReportedError(BluFiDeviceErrorCode)
    /// The device ID (the first custom data of the session) is not UTF-8.
    case deviceIDNotUTF8([UInt8])

    // MARK: The session ended without success

    /// The device reported that it could not join the access point; the report holds its reason.
    case wifiConnectionFailed(BluFiWiFiReport)
    /// The caller's deadline for this reply passed.
    case timedOut(BluFiAwaitedReply)
    /// The BLE link dropped before the session finished.
    case linkLost
    /// The crypto layer failed on valid input (allocation failure inside OpenSSL).
    case cryptoFailed(CryptoError)

    // MARK: The caller misused the core

    /// A request before ``BluFiClient/connected(mtu:)`` or after the link dropped.
    case notConnected
    /// A request while the session still waits for a reply.
    case busy(BluFiAwaitedReply)
    /// A request after the session finished or failed.
    case sessionEnded
    /// An SSID must be 1 to 32 bytes.
    case invalidSSID(byteCount: Int)
    /// A passphrase must be at most 64 bytes.
    case invalidPassword(byteCount: Int)
    /// A BSSID must be exactly 6 bytes.
    case invalidBSSID(byteCount: Int)
    /// A message longer than the 16-bit fragment prefix can announce.
    case messageTooLong(byteCount: Int)
    /// An encrypted frame was requested before a key was installed.
    case encryptionUnavailable

    /// Whether the peer broke the protocol (as opposed to a failed outcome or a misuse).
    public var isPeerViolation: Bool {
        switch self {
        case .truncatedFrame, .frameLengthMismatch, .sequenceMismatch, .encryptedBeforeNegotiation,
            .checksumMismatch, .fragmentWithoutLengthPrefix, .fragmentDeclaresZeroLength, .fragmentLengthMismatch,
            .fragmentRestarted, .unknownFrameType, .unexpectedFrame, .malformedPayload, .invalidPublicKey,
            .unexpectedAcknowledgement, .deviceReportedError, .deviceIDNotUTF8:
            true
        default:
            false
        }
    }

    /// Whether the caller used the core wrongly: a bug or unchecked input on our side.
    public var isMisuse: Bool {
        switch self {
        case .notConnected, .busy, .sessionEnded, .invalidSSID, .invalidPassword, .invalidBSSID, .messageTooLong,
            .encryptionUnavailable:
            true
        default:
            false
        }
    }
}
