public import CryptoPrimitives

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The device side of security 1, as `security1.c` behaves: `Session_Command0` (re)starts the
/// session in any state; a client verifier that does not decrypt to our public key (wrong PoP)
/// throws ``ProtocommError/credentialsMismatch``, which the real device answers by closing the
/// connection.
public struct ProtocommSecurity1DeviceSession: Sendable {
    private let proofOfPossession: [UInt8]
    private var phase = Phase.awaitingCommand0

    private enum Phase: Sendable {
        case awaitingCommand0
        case awaitingCommand1(stream: AESCTRStream, devicePublicKey: [UInt8], clientPublicKey: [UInt8])
    }

    /// An empty PoP is a device built without one.
    public init(proofOfPossession: String) {
        self.proofOfPossession = Array(proofOfPossession.utf8)
    }

    /// Answers a `prov-session` request. Each `Session_Command0` draws a fresh X25519 key
    /// (32 bytes) and then `device_random` (16 bytes) from `random`.
    public mutating func receivedRequest(
        _ request: [UInt8], using random: inout some RandomSource
    ) throws(ProtocommError) -> ProtocommDeviceHandshakeStep {
        let payload = try WireSessionData(wireBytes: request, expecting: .security1).sec1
        switch (payload.msg, phase) {
        case (.sessionCommand0, _):
            return try receivedCommand0(payload.sc0, random: &random)
        case (.sessionCommand1, .awaitingCommand1(let stream, let devicePublicKey, let clientPublicKey)):
            phase = .awaitingCommand0
            return try receivedCommand1(
                payload.sc1, stream: stream, devicePublicKey: devicePublicKey, clientPublicKey: clientPublicKey)
        default:
            phase = .awaitingCommand0
            throw .unexpectedMessage(expected: "\(WireSec1MsgType.sessionCommand0)", received: "\(payload.msg)")
        }
    }

    private mutating func receivedCommand0(
        _ command: WireSessionCmd0, random: inout some RandomSource
    ) throws(ProtocommError) -> ProtocommDeviceHandshakeStep {
        phase = .awaitingCommand0
        let clientPublicKey = command.clientPubkey.byteArray
        let keyPair = X25519KeyPair.generate(using: &random)
        let deviceRandom = random.bytes(Security1Key.deviceRandomLength)
        let key = try Security1Key.derive(
            keyPair: keyPair, peerPublicKey: clientPublicKey, proofOfPossession: proofOfPossession)
        let stream = try Security1Key.stream(key: key, deviceRandom: deviceRandom)
        phase = .awaitingCommand1(stream: stream, devicePublicKey: keyPair.publicKey, clientPublicKey: clientPublicKey)
        var response = WireSessionResp0()
        response.devicePubkey = Data(keyPair.publicKey)
        response.deviceRandom = Data(deviceRandom)
        var payload = WireSec1Payload()
        payload.msg = .sessionResponse0
        payload.sr0 = response
        return .reply(WireSessionData(security1: payload).wireBytes)
    }

    private func receivedCommand1(
        _ command: WireSessionCmd1, stream: AESCTRStream, devicePublicKey: [UInt8], clientPublicKey: [UInt8]
    ) throws(ProtocommError) -> ProtocommDeviceHandshakeStep {
        let verifyData = command.clientVerifyData.byteArray
        guard verifyData.count == X25519KeyPair.keySize else {
            throw .invalidLength(field: "client_verify_data", length: verifyData.count)
        }
        var stream = stream
        guard constantTimeEquals(stream.apply(verifyData), devicePublicKey) else { throw .credentialsMismatch }
        var response = WireSessionResp1()
        response.deviceVerifyData = Data(stream.apply(clientPublicKey))
        var payload = WireSec1Payload()
        payload.msg = .sessionResponse1
        payload.sr1 = response
        return .established(
            reply: WireSessionData(security1: payload).wireBytes, cipher: ProtocommCipher(.stream(stream)))
    }
}
