public import CryptoPrimitives

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The device side of security 2, as `security2.c` and `esp_srp.c` behave: A must be exactly 384
/// bytes and is hashed verbatim, B is sent in minimal form, a wrong proof (wrong username or
/// password) throws ``ProtocommError/credentialsMismatch``, and `S2Session_Command0` restarts the
/// session in any state.
public struct ProtocommSecurity2DeviceSession: Sendable {
    private let verifier: ProtocommSecurity2Verifier
    private let patch: ProtocommSecurity2Patch
    private var phase = Phase.awaitingCommand0

    private enum Phase: Sendable {
        case awaitingCommand0
        case awaitingCommand1(username: [UInt8], clientPublic: [UInt8], devicePublic: [UInt8], sessionKey: [UInt8])
    }

    /// A device holding `verifier` that builds its nonces as `patch` says.
    public init(verifier: ProtocommSecurity2Verifier, patch: ProtocommSecurity2Patch) {
        self.verifier = verifier
        self.patch = patch
    }

    /// Answers a `prov-session` request. Each `S2Session_Command0` draws the secret b (32 bytes)
    /// from `random`; each accepted proof then draws the nonce: 8 session-id bytes (patch 1) or
    /// 16 bytes (patch 0).
    public mutating func receivedRequest(
        _ request: [UInt8], using random: inout some RandomSource
    ) throws(ProtocommError) -> ProtocommDeviceHandshakeStep {
        let payload = try WireSessionData(wireBytes: request, expecting: .security2).sec2
        switch (payload.msg, phase) {
        case (.s2SessionCommand0, _):
            phase = .awaitingCommand0
            return try receivedCommand0(payload.sc0, random: &random)
        case (.s2SessionCommand1, .awaitingCommand1(let username, let clientPublic, let devicePublic, let sessionKey)):
            phase = .awaitingCommand0
            let proofs = SessionProofs(
                username: username, salt: verifier.salt, clientPublic: clientPublic, devicePublic: devicePublic,
                sessionKey: sessionKey)
            return try receivedCommand1(payload.sc1, proofs: proofs, random: &random)
        default:
            phase = .awaitingCommand0
            throw .unexpectedMessage(expected: "\(WireSec2MsgType.s2SessionCommand0)", received: "\(payload.msg)")
        }
    }

    private mutating func receivedCommand0(
        _ command: WireS2SessionCmd0, random: inout some RandomSource
    ) throws(ProtocommError) -> ProtocommDeviceHandshakeStep {
        let username = command.clientUsername.byteArray
        let clientPublic = command.clientPubkey.byteArray
        guard (1...Int(UInt16.max)).contains(username.count) else { throw .invalidUsernameLength(username.count) }
        guard clientPublic.count == SRP6a.byteCount else {
            throw .invalidLength(field: "client_pubkey", length: clientPublic.count)
        }
        let clientValue = BigNumber(bigEndian: clientPublic)
        guard !clientValue.reduced(modulus: SRP6a.prime).isZero else { throw .degenerateKeyAgreement }
        let secret = BigNumber(bigEndian: random.bytes(SRP6a.secretLength))
        let storedVerifier = BigNumber(bigEndian: verifier.verifier)
        let devicePublic = SRP6a.multiplier.multiplied(by: storedVerifier, modulus: SRP6a.prime)
            .adding(SRP6a.publicValue(secret: secret), modulus: SRP6a.prime)
        let scrambler = SRP6a.scrambler(clientPublic: clientPublic, devicePublic: devicePublic.magnitude)
        guard !scrambler.isZero else { throw .degenerateKeyAgreement }
        // S = (A · v^u)^b mod N
        let premaster = clientValue.multiplied(
            by: storedVerifier.power(scrambler, modulus: SRP6a.prime), modulus: SRP6a.prime
        ).power(secret, modulus: SRP6a.prime)
        phase = .awaitingCommand1(
            username: username, clientPublic: clientPublic, devicePublic: devicePublic.magnitude,
            sessionKey: SRP6a.sessionKey(premaster: premaster))
        var response = WireS2SessionResp0()
        response.devicePubkey = Data(devicePublic.magnitude)
        response.deviceSalt = Data(verifier.salt)
        var payload = WireSec2Payload()
        payload.msg = .s2SessionResponse0
        payload.sr0 = response
        return .reply(WireSessionData(security2: payload).wireBytes)
    }

    private mutating func receivedCommand1(
        _ command: WireS2SessionCmd1, proofs: SessionProofs, random: inout some RandomSource
    ) throws(ProtocommError) -> ProtocommDeviceHandshakeStep {
        let clientProof = command.clientProof.byteArray
        guard clientProof.count == SRP6a.hashLength else {
            throw .invalidLength(field: "client_proof", length: clientProof.count)
        }
        guard constantTimeEquals(clientProof, proofs.expectedClientProof) else { throw .credentialsMismatch }
        let deviceNonce =
            switch patch {
            case .fixedNonce: random.bytes(patch.deviceNonceLength)
            case .counterNonce: random.bytes(GCMNonce.sessionIDLength) + [0, 0, 0, 1]
            }
        var response = WireS2SessionResp1()
        response.deviceProof = Data(proofs.deviceProof(clientProof: clientProof))
        response.deviceNonce = Data(deviceNonce)
        var payload = WireSec2Payload()
        payload.msg = .s2SessionResponse1
        payload.sr1 = response
        let cipher = ProtocommCipher(
            .gcm(
                key: SRP6a.encryptionKey(sessionKey: proofs.sessionKey),
                nonce: try GCMNonce(patch: patch, deviceNonce: deviceNonce)))
        return .established(reply: WireSessionData(security2: payload).wireBytes, cipher: cipher)
    }
}

/// The values both SRP proofs are computed from, with the byte strings exactly as exchanged.
private struct SessionProofs {
    let username: [UInt8]
    let salt: [UInt8]
    let clientPublic: [UInt8]
    let devicePublic: [UInt8]
    let sessionKey: [UInt8]

    var expectedClientProof: [UInt8] {
        SRP6a.clientProof(
            username: username, salt: salt, clientPublic: clientPublic, devicePublic: devicePublic,
            sessionKey: sessionKey)
    }

    func deviceProof(clientProof: [UInt8]) -> [UInt8] {
        SRP6a.deviceProof(clientPublic: clientPublic, clientProof: clientProof, sessionKey: sessionKey)
    }
}
