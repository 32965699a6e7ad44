/// What a client handshake wants next, after it has read the device's reply.
public enum ProtocommSessionStep: Sendable {
    /// Post these bytes to `prov-session` and feed the reply to `receive(_:)`.
    case send([UInt8])
    /// The handshake is done; use this cipher for every later payload.
    case established(ProtocommCipher)
}
