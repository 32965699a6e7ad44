/// What a device-side handshake does with a `prov-session` request it accepted.
public enum ProtocommDeviceHandshakeStep: Sendable {
    /// Answer with these bytes; the handshake goes on.
    case reply([UInt8])
    /// Answer with these bytes; from now on payloads go through `cipher`.
    case established(reply: [UInt8], cipher: ProtocommCipher)
}
