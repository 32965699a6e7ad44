import CryptoPrimitives
public import Protocomm

/// A client handshake run against the emulated device with fixed credentials and seeds, stopped
/// after a chosen number of device replies, so harnesses start every input from a deep state.
public struct ProtocommFuzzHandshake: Sendable {
    /// The client session, waiting for the reply that follows the replayed ones.
    public var client: ProtocommSession
    /// The client's cipher once the handshake finished.
    public var clientCipher: ProtocommCipher?
    /// The device's cipher once the handshake finished: encrypts what `clientCipher` must decrypt.
    public var deviceCipher: ProtocommCipher?

    /// The three schemes with matching credentials on both sides (security 2 in both nonce patches
    /// and with the patch left to the client to guess).
    public static let securities: [(client: ProtocommSecurity, device: ProtocommDeviceSecurity)] = {
        let verifier = ProtocommSecurity2Verifier(username: "wifiprov", password: "abcd1234", salt: Array(0..<16))
        return [
            (.security0, .security0),
            (.security1(proofOfPossession: "abcd1234"), .security1(proofOfPossession: "abcd1234")),
            (
                .security2(username: "wifiprov", password: "abcd1234", patch: .counterNonce),
                .security2(verifier: verifier, patch: .counterNonce)
            ),
            (
                .security2(username: "wifiprov", password: "abcd1234", patch: nil),
                .security2(verifier: verifier, patch: .fixedNonce)
            ),
        ]
    }()

    /// Runs `security` until `replies` device replies were read (or the handshake ended earlier).
    public init(
        client security: ProtocommSecurity, device deviceSecurity: ProtocommDeviceSecurity, replies: Int
    ) {
        var clientRandom = SeededRandomSource(seed: [0xC1])
        var deviceRandom = SeededRandomSource(seed: [0xDE])
        guard var session = try? ProtocommSession(security: security, random: &clientRandom) else {
            preconditionFailure("fixed protocomm credentials must be valid")
        }
        var device = ProtocommDeviceSession(security: deviceSecurity)
        var request = session.start()
        for _ in 0..<replies where clientCipher == nil {
            guard let answer = try? device.receivedRequest(request, using: &deviceRandom) else {
                preconditionFailure("the emulated device must accept the fixed handshake")
            }
            let reply: [UInt8]
            switch answer {
            case .reply(let bytes): reply = bytes
            case .established(let bytes, let cipher):
                reply = bytes
                deviceCipher = cipher
            }
            switch try? session.receive(reply) {
            case .send(let next): request = next
            case .established(let cipher): clientCipher = cipher
            case nil: preconditionFailure("the client must accept the emulated device's reply")
            }
        }
        client = session
    }
}
