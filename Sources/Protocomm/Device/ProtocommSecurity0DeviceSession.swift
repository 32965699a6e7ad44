/// The device side of security 0: accepts `SessionData` with `sec_ver = 0` and answers
/// `Sec0Payload{msg = S0_Session_Response, sr{}}`.
public struct ProtocommSecurity0DeviceSession: Sendable {
    /// Security 0 keeps no state.
    public init() {}

    /// Answers a `prov-session` request; like the real device it checks `sec_ver` only.
    public func receivedRequest(_ request: [UInt8]) throws(ProtocommError) -> ProtocommDeviceHandshakeStep {
        _ = try WireSessionData(wireBytes: request, expecting: .security0)
        var payload = WireSec0Payload()
        payload.msg = .s0SessionResponse
        payload.sr = WireS0SessionResp()
        return .established(reply: WireSessionData(security0: payload).wireBytes, cipher: .plaintext)
    }
}
