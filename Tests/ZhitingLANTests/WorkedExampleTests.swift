import CryptoPrimitives
import TestSupport
import Testing
import ZhitingLAN

/// The worked example of `Vectors/worked-example.json` byte for byte, through the public API of the client
/// and the responder.
@Suite struct WorkedExampleTests {
    let example = WorkedExample.shared

    @Test func helloIsTheFixedThirtyTwoBytes() {
        #expect(ZhitingHello.request == [UInt8](hex: example.helloRequest))
    }

    @Test func tokenRequestCarriesTheAsciiKeyInTheChecksumField() {
        var client = ZhitingLANClient(deviceID: example.id, sessionKey: example.key, goal: .readInfo)
        #expect(client.start() == [UInt8](hex: example.tokenRequest))
        #expect(client.phase == .awaitingToken)
    }

    @Test(arguments: ZhitingReservedVariant.allCases)
    func tokenReplyYieldsTheWorkedGetInfoRequest(reserved: ZhitingReservedVariant) throws {
        let expected = [UInt8](
            hex: reserved == .zero ? example.getInfoRequestReservedZero : example.getInfoRequestReservedOnes
        )
        var client = ZhitingLANClient(
            deviceID: example.id,
            sessionKey: example.key,
            goal: .readInfo,
            framing: ZhitingRequestFraming(reserved: reserved)
        )
        _ = client.start()
        let step = try client.receivedDatagram([UInt8](hex: example.tokenReply))
        #expect(step == .tokenReceived(next: expected))
        #expect(client.pendingRequest == expected)
    }

    @Test func packetDigestConventionFillsTheWorkedChecksum() throws {
        var client = ZhitingLANClient(
            deviceID: example.id,
            sessionKey: example.key,
            goal: .readInfo,
            framing: ZhitingRequestFraming(checksum: .packetDigest)
        )
        _ = client.start()
        guard case .tokenReceived(let request) = try client.receivedDatagram([UInt8](hex: example.tokenReply)) else {
            Issue.record("no request after the token reply")
            return
        }
        let expected = [UInt8](hex: example.getInfoRequestReservedZero)
        #expect(Array(request[16..<32]) == [UInt8](hex: example.getInfoPacketDigestChecksum))
        #expect(Array(request[0..<16]) == Array(expected[0..<16]))
        #expect(Array(request[32...]) == Array(expected[32...]))
    }

    @Test func independentCipherAgreesWithTheWorkedCiphertext() throws {
        let ciphertext = TestCipher.encrypt(Array(example.getInfoPlaintext.utf8), secret: example.tokenValue.bytes)
        #expect(ciphertext == [UInt8](hex: example.getInfoCiphertext))
        let request = try ZhitingPacket(decoding: [UInt8](hex: example.getInfoRequestReservedZero))
        #expect(
            try TestCipher.decrypt(request.payload, secret: example.tokenValue.bytes)
                == Array(example.getInfoPlaintext.utf8)
        )
    }

    @Test func responderBuildsTheWorkedTokenReplyAndHelloReply() {
        var responder = ZhitingDeviceResponder(
            profile: .init(
                deviceID: example.id,
                token: example.tokenValue,
                info: .init(model: example.smartAssistantModel)
            )
        )
        #expect(responder.receivedDatagram(ZhitingHello.request) == [UInt8](hex: example.smartAssistantHelloReply))
        #expect(responder.receivedDatagram([UInt8](hex: example.tokenRequest)) == [UInt8](hex: example.tokenReply))
        #expect(responder.sessionKey == example.key)
    }

    @Test func smartAssistantHelloReplyNamesItsModel() throws {
        let reply = try ZhitingHello.reply(from: [UInt8](hex: example.smartAssistantHelloReply))
        #expect(reply == ZhitingHelloReply(deviceID: example.id, model: example.smartAssistantModel))
        #expect(try ZhitingHello.reply(from: ZhitingHello.request) == nil)
    }

    @Test func workedRepliesFollowThePacketDigestConvention() throws {
        for hex in [example.tokenReply, example.smartAssistantHelloReply] {
            let packet = try ZhitingPacket(decoding: [UInt8](hex: hex))
            #expect(ZhitingChecksumConvention.recognize(in: packet, sessionKey: example.key) == .packetDigest)
        }
        let request = try ZhitingPacket(decoding: [UInt8](hex: example.getInfoRequestReservedZero))
        #expect(ZhitingChecksumConvention.recognize(in: request, sessionKey: example.key) == .sessionKey)
        #expect(request.encoded() == [UInt8](hex: example.getInfoRequestReservedZero))
    }

    @Test func responderAcceptsTheExactIOSSetServerText() throws {
        var responder = ZhitingDeviceResponder(
            profile: .init(deviceID: example.id, token: example.tokenValue, info: .init(model: "ZTSW3SLW001W"))
        )
        _ = responder.receivedDatagram([UInt8](hex: example.tokenRequest))
        let payload = TestCipher.encrypt(Array(example.setServerPlaintextIOS.utf8), secret: example.tokenValue.bytes)
        let request = ZhitingPacket(
            reserved: 0,
            deviceID: example.id,
            checksumField: example.key.bytes,
            payload: payload
        )
        let answer = responder.receivedDatagram(request.encoded())
        let reply = try #require(answer)
        let plaintext = try TestCipher.decrypt(
            try ZhitingPacket(decoding: reply).payload,
            secret: example.tokenValue.bytes
        )
        #expect(
            String(decoding: plaintext, as: UTF8.self)
                == #"{"id":2,"result":{"server":"gz.sc.zhitingtech.com","port":54321,"area_id":"123"}}"#
        )
        #expect(
            responder.assignment
                == ZhitingServerAssignment(
                    server: "gz.sc.zhitingtech.com",
                    port: 54321,
                    accessToken: "ACCESS",
                    areaID: "123"
                )
        )
    }
}
