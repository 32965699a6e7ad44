public import CryptoPrimitives

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The client side of security 1 (ESP-IDF's `components/protocomm/src/security/security1.c`): X25519, an
/// optional proof of possession, and one AES-256-CTR keystream for everything after the handshake.
///
/// Two round trips: `Session_Command0` carries our public key, the device answers with its key
/// and the counter block; `Session_Command1` carries the device's key encrypted under the mixed
/// key (our proof of the PoP), the device answers with ours encrypted the same way. A wrong PoP
/// makes the real device close the connection instead of answering the second command.
public struct ProtocommSecurity1Session: Sendable {
    private let keyPair: X25519KeyPair
    private let proofOfPossession: [UInt8]
    private var phase = ProtocommHandshakePhase<AESCTRStream>.idle

    /// Draws the ephemeral X25519 key (32 bytes) from `random`. An empty PoP is "no PoP".
    public init(proofOfPossession: String, random: inout some RandomSource) {
        keyPair = X25519KeyPair.generate(using: &random)
        self.proofOfPossession = Array(proofOfPossession.utf8)
    }

    /// True once our verifier is on its way: a connection the device drops now means a wrong PoP.
    public var isAwaitingVerdict: Bool { phase.isAwaitingVerdict }

    /// The `Session_Command0` request; calling it again restarts the handshake, as the device allows.
    public mutating func start() -> [UInt8] {
        phase = .awaitingResponse0
        var command = WireSessionCmd0()
        command.clientPubkey = Data(keyPair.publicKey)
        var payload = WireSec1Payload()
        payload.msg = .sessionCommand0
        payload.sc0 = command
        return WireSessionData(security1: payload).wireBytes
    }

    /// Reads the device's reply and says what to send next.
    public mutating func receive(_ reply: [UInt8]) throws(ProtocommError) -> ProtocommSessionStep {
        guard let stream = try phase.pendingSecondReply() else {
            return try receivedResponse0(Self.payload(reply, expecting: .sessionResponse0).sr0)
        }
        return try receivedResponse1(Self.payload(reply, expecting: .sessionResponse1).sr1, stream: stream)
    }

    private mutating func receivedResponse0(_ response: WireSessionResp0) throws(ProtocommError) -> ProtocommSessionStep
    {
        try response.status.requireSuccess()
        let devicePublicKey = response.devicePubkey.byteArray
        let key = try Security1Key.derive(
            keyPair: keyPair, peerPublicKey: devicePublicKey, proofOfPossession: proofOfPossession)
        var stream = try Security1Key.stream(key: key, deviceRandom: response.deviceRandom.byteArray)
        var command = WireSessionCmd1()
        command.clientVerifyData = Data(stream.apply(devicePublicKey))
        var payload = WireSec1Payload()
        payload.msg = .sessionCommand1
        payload.sc1 = command
        phase = .awaitingResponse1(stream)
        return .send(WireSessionData(security1: payload).wireBytes)
    }

    private mutating func receivedResponse1(
        _ response: WireSessionResp1, stream: AESCTRStream
    ) throws(ProtocommError) -> ProtocommSessionStep {
        try response.status.requireSuccess()
        let verifyData = response.deviceVerifyData.byteArray
        guard verifyData.count == X25519KeyPair.keySize else {
            throw .invalidLength(field: "device_verify_data", length: verifyData.count)
        }
        var stream = stream
        guard constantTimeEquals(stream.apply(verifyData), keyPair.publicKey) else { throw .deviceProofMismatch }
        phase = .established
        return .established(ProtocommCipher(.stream(stream)))
    }

    private static func payload(
        _ reply: [UInt8], expecting message: WireSec1MsgType
    ) throws(ProtocommError) -> WireSec1Payload {
        let payload = try WireSessionData(wireBytes: reply, expecting: .security1).sec1
        guard payload.msg == message else {
            throw .unexpectedMessage(expected: "\(message)", received: "\(payload.msg)")
        }
        return payload
    }
}
