/// The client side of security 0: one plaintext round trip that confirms the device speaks
/// security 0, after which payloads travel unencrypted.
public struct ProtocommSecurity0Session: Sendable {
    private var phase = Phase.idle

    private enum Phase: Sendable {
        case idle, awaitingResponse, established
    }

    /// Security 0 needs no secrets.
    public init() {}

    /// The `SessionData{sec0{sc{}}}` request; calling it again restarts the handshake.
    public mutating func start() -> [UInt8] {
        phase = .awaitingResponse
        var payload = WireSec0Payload()
        payload.msg = .s0SessionCommand
        payload.sc = WireS0SessionCmd()
        return WireSessionData(security0: payload).wireBytes
    }

    /// Reads the device's reply; the only possible next step is ``ProtocommSessionStep/established(_:)``.
    public mutating func receive(_ reply: [UInt8]) throws(ProtocommError) -> ProtocommSessionStep {
        switch phase {
        case .idle: throw .handshakeNotStarted
        case .established: throw .handshakeAlreadyFinished
        case .awaitingResponse: break
        }
        let payload = try WireSessionData(wireBytes: reply, expecting: .security0).sec0
        guard payload.msg == .s0SessionResponse else {
            throw .unexpectedMessage(expected: "\(WireSec0MsgType.s0SessionResponse)", received: "\(payload.msg)")
        }
        try payload.sr.status.requireSuccess()
        phase = .established
        return .established(.plaintext)
    }
}
