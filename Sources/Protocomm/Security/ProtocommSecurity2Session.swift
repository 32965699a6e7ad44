public import CryptoPrimitives

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The client side of security 2 (ESP-IDF's `components/protocomm/src/security/security2.c`): SRP6a with
/// username and password, then AES-256-GCM with the nonce scheme of the device's patch level.
///
/// `S2Session_Command0` carries the username and A (always the full 384 bytes, which the device
/// requires and then hashes verbatim); the device answers with B and the salt. `S2Session_Command1`
/// carries our proof M; the device answers with its proof and the nonce, or closes the connection
/// if the password is wrong.
public struct ProtocommSecurity2Session: Sendable {
    private let username: [UInt8]
    private let password: [UInt8]
    private let patch: ProtocommSecurity2Patch?
    private let secret: BigNumber
    private let clientPublic: [UInt8]
    private var phase = ProtocommHandshakePhase<(expectedProof: [UInt8], sessionKey: [UInt8])>.idle

    /// Draws the SRP secret a (32 bytes) from `random`.
    ///
    /// - Parameter patch: the nonce scheme from `sec_patch_ver`; nil decides from the nonce's length.
    public init(
        username: String, password: String, patch: ProtocommSecurity2Patch?, random: inout some RandomSource
    ) throws(ProtocommError) {
        self.username = Array(username.utf8)
        guard (1...Int(UInt16.max)).contains(self.username.count) else {
            throw .invalidUsernameLength(self.username.count)
        }
        self.password = Array(password.utf8)
        self.patch = patch
        secret = BigNumber(bigEndian: random.bytes(SRP6a.secretLength))
        clientPublic = SRP6a.pad(SRP6a.publicValue(secret: secret))
    }

    /// True once our proof is on its way: a connection the device drops now means wrong credentials.
    public var isAwaitingVerdict: Bool { phase.isAwaitingVerdict }

    /// The `S2Session_Command0` request; calling it again restarts the handshake.
    public mutating func start() -> [UInt8] {
        phase = .awaitingResponse0
        var command = WireS2SessionCmd0()
        command.clientUsername = Data(username)
        command.clientPubkey = Data(clientPublic)
        var payload = WireSec2Payload()
        payload.msg = .s2SessionCommand0
        payload.sc0 = command
        return WireSessionData(security2: payload).wireBytes
    }

    /// Reads the device's reply and says what to send next.
    public mutating func receive(_ reply: [UInt8]) throws(ProtocommError) -> ProtocommSessionStep {
        guard let pending = try phase.pendingSecondReply() else {
            return try receivedResponse0(Self.payload(reply, expecting: .s2SessionResponse0).sr0)
        }
        let response = try Self.payload(reply, expecting: .s2SessionResponse1).sr1
        return try receivedResponse1(response, expectedProof: pending.expectedProof, sessionKey: pending.sessionKey)
    }

    private mutating func receivedResponse0(_ response: WireS2SessionResp0) throws(ProtocommError)
        -> ProtocommSessionStep
    {
        try response.status.requireSuccess()
        let devicePublic = response.devicePubkey.byteArray
        let salt = response.deviceSalt.byteArray
        guard (1...SRP6a.byteCount).contains(devicePublic.count) else {
            throw .invalidLength(field: "device_pubkey", length: devicePublic.count)
        }
        let sessionKey = try deriveSessionKey(devicePublic: BigNumber(bigEndian: devicePublic), salt: salt)
        let proof = SRP6a.clientProof(
            username: username, salt: salt, clientPublic: clientPublic, devicePublic: devicePublic,
            sessionKey: sessionKey)
        let expectedProof = SRP6a.deviceProof(clientPublic: clientPublic, clientProof: proof, sessionKey: sessionKey)
        var command = WireS2SessionCmd1()
        command.clientProof = Data(proof)
        var payload = WireSec2Payload()
        payload.msg = .s2SessionCommand1
        payload.sc1 = command
        phase = .awaitingResponse1((expectedProof: expectedProof, sessionKey: sessionKey))
        return .send(WireSessionData(security2: payload).wireBytes)
    }

    /// K from S = (B − k·v)^(a + u·x) mod N.
    private func deriveSessionKey(devicePublic: BigNumber, salt: [UInt8]) throws(ProtocommError) -> [UInt8] {
        guard !devicePublic.reduced(modulus: SRP6a.prime).isZero else { throw .degenerateKeyAgreement }
        let scrambler = SRP6a.scrambler(clientPublic: clientPublic, devicePublic: devicePublic.magnitude)
        guard !scrambler.isZero else { throw .degenerateKeyAgreement }
        let exponent = SRP6a.passwordExponent(username: username, password: password, salt: salt)
        let verifier = SRP6a.publicValue(secret: exponent)
        let base = devicePublic.subtracting(
            SRP6a.multiplier.multiplied(by: verifier, modulus: SRP6a.prime), modulus: SRP6a.prime)
        let premaster = base.power(secret + scrambler * exponent, modulus: SRP6a.prime)
        return SRP6a.sessionKey(premaster: premaster)
    }

    private mutating func receivedResponse1(
        _ response: WireS2SessionResp1, expectedProof: [UInt8], sessionKey: [UInt8]
    ) throws(ProtocommError) -> ProtocommSessionStep {
        try response.status.requireSuccess()
        guard constantTimeEquals(response.deviceProof.byteArray, expectedProof) else { throw .deviceProofMismatch }
        let deviceNonce = response.deviceNonce.byteArray
        guard let patch = patch ?? ProtocommSecurity2Patch(deviceNonceLength: deviceNonce.count) else {
            throw .invalidLength(field: "device_nonce", length: deviceNonce.count)
        }
        let nonce = try GCMNonce(patch: patch, deviceNonce: deviceNonce)
        phase = .established
        return .established(ProtocommCipher(.gcm(key: SRP6a.encryptionKey(sessionKey: sessionKey), nonce: nonce)))
    }

    private static func payload(
        _ reply: [UInt8], expecting message: WireSec2MsgType
    ) throws(ProtocommError) -> WireSec2Payload {
        let payload = try WireSessionData(wireBytes: reply, expecting: .security2).sec2
        guard payload.msg == message else {
            throw .unexpectedMessage(expected: "\(message)", received: "\(payload.msg)")
        }
        return payload
    }
}
