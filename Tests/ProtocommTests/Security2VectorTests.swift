import CryptoPrimitives
import TestSupport
import Testing

@testable import Protocomm

/// The security 2 example of `Vectors/security2.json` (username wifiprov, password abcd1234), byte for
/// byte, for both patch levels.
@Suite struct Security2VectorTests {
    @Test func srpIntermediatesMatchTheWorkedExample() throws {
        let example = try WorkedExamples.security2()
        let salt = [UInt8](hex: example.salt)
        let x = SRP6a.passwordExponent(
            username: Array(example.username.utf8), password: Array(example.password.utf8), salt: salt)
        #expect(x.magnitude.hexString == example.x)
        let verifier = ProtocommSecurity2Verifier(username: example.username, password: example.password, salt: salt)
        #expect(verifier.verifier.count == 384)
        #expect(Array(verifier.verifier.prefix(8)).hexString == example.verifierFirst8)
        #expect(Array(verifier.verifier.suffix(8)).hexString == example.verifierLast8)
    }

    @Test(arguments: try WorkedExamples.security2().patches)
    func handshakeAndTrafficMatchTheWorkedExample(_ patchExample: WorkedExamples.Security2.Patch) throws {
        let example = try WorkedExamples.security2()
        let patch = try #require(ProtocommSecurity2Patch(rawValue: patchExample.patch))
        var clientRandom = ScriptedRandomSource([UInt8](hex: example.clientSecret))
        var client = try ProtocommSecurity2Session(
            username: example.username, password: example.password, patch: patch, random: &clientRandom)
        var device = ProtocommSecurity2DeviceSession(
            verifier: ProtocommSecurity2Verifier(
                username: example.username, password: example.password, salt: [UInt8](hex: example.salt)),
            patch: patch)
        var deviceRandom = ScriptedRandomSource([UInt8](hex: example.deviceSecret + patchExample.deviceNonceRandom))

        let command0 = try WireSessionData(wireBytes: client.start(), expecting: .security2)
        #expect(command0.sec2.sc0.clientUsername.byteArray == Array(example.username.utf8))
        let clientPublic = command0.sec2.sc0.clientPubkey.byteArray
        #expect(clientPublic.count == 384)
        #expect(Array(clientPublic.prefix(8)).hexString == example.clientPublicFirst8)
        #expect(Array(clientPublic.suffix(8)).hexString == example.clientPublicLast8)

        guard case .reply(let response0) = try device.receivedRequest(command0.wireBytes, using: &deviceRandom) else {
            throw ExampleFailure("device did not answer S2Session_Command0 with a reply")
        }
        let devicePublic = try WireSessionData(wireBytes: response0, expecting: .security2).sec2.sr0.devicePubkey
            .byteArray
        #expect(Array(devicePublic.prefix(8)).hexString == example.devicePublicFirst8)
        #expect(Array(devicePublic.suffix(8)).hexString == example.devicePublicLast8)
        #expect(
            SRP6a.scrambler(clientPublic: clientPublic, devicePublic: devicePublic).magnitude.hexString == example.u)

        guard case .send(let command1) = try client.receive(response0) else {
            throw ExampleFailure("client did not produce S2Session_Command1")
        }
        let proof = try WireSessionData(wireBytes: command1, expecting: .security2).sec2.sc1.clientProof.byteArray
        #expect(proof.hexString == example.clientProof)

        guard
            case .established(let response1, var deviceCipher) = try device.receivedRequest(
                command1, using: &deviceRandom)
        else {
            throw ExampleFailure("device did not establish after S2Session_Command1")
        }
        let sr1 = try WireSessionData(wireBytes: response1, expecting: .security2).sec2.sr1
        #expect(sr1.deviceProof.byteArray.hexString == example.deviceProof)
        #expect(sr1.deviceNonce.byteArray.hexString == patchExample.deviceNonce)
        guard case .established(var clientCipher) = try client.receive(response1) else {
            throw ExampleFailure("client did not establish after S2Session_Response1")
        }

        let request = try clientCipher.encrypt([UInt8](hex: patchExample.requestPlaintext))
        #expect(request.hexString == patchExample.requestCiphertext)
        #expect(try deviceCipher.decrypt(request).hexString == patchExample.requestPlaintext)
        let response = try deviceCipher.encrypt([UInt8](hex: patchExample.responsePlaintext))
        #expect(response.hexString == patchExample.responseCiphertext)
        #expect(try clientCipher.decrypt(response).hexString == patchExample.responsePlaintext)
    }

    @Test func sessionKeyAndEncryptionKeyMatchTheWorkedExample() throws {
        let example = try WorkedExamples.security2()
        let key = [UInt8](hex: example.sessionKey)
        #expect(SRP6a.encryptionKey(sessionKey: key).hexString == example.aesKey)
        #expect(
            SRP6a.multiplier.magnitude.hexString
                == "a9c2e2559bf0ebb53f0cbbf62282906bede7f2182f00678211fbd5bde5b285033a4993503b87397f9be5ec02080fedbc0835587ad039060879b8621e8c3659e0"
        )
        #expect(
            SRP6a.groupHash.hexString
                == "dad76ed5365ed7bf6bbc1bfa050981458392bbd35a50335d03db3c7535b261d1c902f2ffb8647125bd28ce966c066d5be9b939216c6078b65889299c61624694"
        )
    }
}
