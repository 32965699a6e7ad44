import CryptoPrimitives
import Protocomm
import TestSupport
import Testing

/// The security 1 example of `Vectors/security1.json` (PoP abcd1234), byte for byte, with both sides of the
/// handshake.
@Suite struct Security1VectorTests {
    private struct Established {
        var client: ProtocommCipher
        var device: ProtocommCipher
    }

    private func runHandshake(_ example: WorkedExamples.Security1) throws -> Established {
        var clientRandom = ScriptedRandomSource([UInt8](hex: example.clientPrivateKey))
        var client = ProtocommSecurity1Session(proofOfPossession: example.proofOfPossession, random: &clientRandom)
        var device = ProtocommSecurity1DeviceSession(proofOfPossession: example.proofOfPossession)
        var deviceRandom = ScriptedRandomSource([UInt8](hex: example.devicePrivateKey + example.deviceRandom))

        let command0 = client.start()
        #expect(command0.hexString == [UInt8](hex: example.handshake.command0).hexString)
        guard case .reply(let response0) = try device.receivedRequest(command0, using: &deviceRandom) else {
            throw ExampleFailure("device did not answer Session_Command0 with a reply")
        }
        #expect(response0.hexString == [UInt8](hex: example.handshake.response0).hexString)
        guard case .send(let command1) = try client.receive(response0) else {
            throw ExampleFailure("client did not produce Session_Command1")
        }
        #expect(command1.hexString == [UInt8](hex: example.handshake.command1).hexString)
        #expect(client.isAwaitingVerdict)
        guard
            case .established(let response1, let deviceCipher) = try device.receivedRequest(
                command1, using: &deviceRandom)
        else {
            throw ExampleFailure("device did not establish after Session_Command1")
        }
        #expect(response1.hexString == [UInt8](hex: example.handshake.response1).hexString)
        guard case .established(let clientCipher) = try client.receive(response1) else {
            throw ExampleFailure("client did not establish after Session_Response1")
        }
        #expect(clientCipher.level == .security1)
        return Established(client: clientCipher, device: deviceCipher)
    }

    @Test func handshakeMatchesTheWorkedExample() throws {
        _ = try runHandshake(try WorkedExamples.security1())
    }

    @Test func applicationTrafficContinuesOneKeystreamInBothDirections() throws {
        let example = try WorkedExamples.security1()
        var ciphers = try runHandshake(example)
        for message in example.traffic {
            let plaintext = [UInt8](hex: message.plaintext)
            let ciphertext = [UInt8](hex: message.ciphertext)
            if message.fromClient == true {
                #expect(try ciphers.client.encrypt(plaintext).hexString == ciphertext.hexString, "\(message.comment)")
                #expect(try ciphers.device.decrypt(ciphertext) == plaintext, "\(message.comment)")
            } else {
                #expect(try ciphers.device.encrypt(plaintext).hexString == ciphertext.hexString, "\(message.comment)")
                #expect(try ciphers.client.decrypt(ciphertext) == plaintext, "\(message.comment)")
            }
        }
    }

    @Test(arguments: try WorkedExamples.security1().firstMessages)
    func firstMessageAfterTheHandshakeStartsAtKeystreamOffset64(_ message: WorkedExamples.Security1.Message) throws {
        var ciphers = try runHandshake(try WorkedExamples.security1())
        let ciphertext = try ciphers.client.encrypt([UInt8](hex: message.plaintext))
        #expect(ciphertext.hexString == [UInt8](hex: message.ciphertext).hexString)
    }
}

/// A worked example went off the expected path; the message says where.
struct ExampleFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
