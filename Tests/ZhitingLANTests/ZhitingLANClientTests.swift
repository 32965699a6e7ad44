import TestSupport
import Testing
import ZhitingLAN

@Suite struct ZhitingLANClientTests {
    let example = WorkedExample.shared
    let forge = ForgedReplies()
    let assignment = ZhitingServerAssignment(
        server: "gz.sc.zhitingtech.com",
        port: 54321,
        accessToken: "ACCESS",
        areaID: "123"
    )

    @Test func datagramsBeforeStartAreAMisuse() {
        var client = ZhitingLANClient(deviceID: example.id, sessionKey: example.key, goal: .readInfo)
        #expect(throws: ZhitingLANError.clientNotStarted) { try client.receivedDatagram(ZhitingHello.request) }
    }

    @Test func ignoresTheHelloEchoAndOtherDevicesWhileWaitingForTheToken() throws {
        var client = ZhitingLANClient(deviceID: example.id, sessionKey: example.key, goal: .readInfo)
        _ = client.start()
        #expect(try client.receivedDatagram(ZhitingHello.request) == .ignored(.hello))
        var spoofed = [UInt8](hex: example.tokenReply)
        spoofed[11] = 0x00
        let other = ZhitingDeviceID("a1b2c3d4e500")!
        #expect(try client.receivedDatagram(spoofed) == .ignored(.otherDevice(other)))
        #expect(try client.receivedDatagram([UInt8](hex: example.smartAssistantHelloReply)) == .ignored(.helloReply))
        #expect(client.phase == .awaitingToken)
    }

    @Test func ignoresATokenReplyWrappedUnderAnotherKey() throws {
        var client = ZhitingLANClient(
            deviceID: example.id,
            sessionKey: try ZhitingSessionKey("ponmlkjihgfedcba"),
            goal: .readInfo
        )
        _ = client.start()
        #expect(try client.receivedDatagram([UInt8](hex: example.tokenReply)) == .ignored(.undecryptable))
        #expect(client.phase == .awaitingToken)
    }

    @Test func ignoresTruncatedAndOversizedReplies() throws {
        var client = try forge.clientAwaitingInfo()
        let reply = forge.encrypted(#"{"id":1,"result":{"model":"x"}}"#)
        let truncated = Array(reply.dropLast(1))
        #expect(
            try client.receivedDatagram(truncated)
                == .ignored(.malformed(.truncatedPacket(declared: reply.count, received: reply.count - 1)))
        )
        let oversized = [UInt8](repeating: 0, count: 5000)
        #expect(try client.receivedDatagram(oversized) == .ignored(.malformed(.oversizedPacket(5000))))
        #expect(client.phase == .awaitingInfo)
    }

    @Test func ignoresRepliesToOtherRequestsAndUndecryptableOnes() throws {
        var client = try forge.clientAwaitingInfo()
        #expect(
            try client.receivedDatagram(forge.encrypted(#"{"id":7,"result":{"model":"x"}}"#))
                == .ignored(.unexpectedID(7))
        )
        #expect(
            try client.receivedDatagram(forge.encrypted(#"{"result":{"model":"x"}}"#)) == .ignored(.unexpectedID(nil))
        )
        #expect(try client.receivedDatagram(forge.encrypted("not json")) == .ignored(.notJSON))
        var garbled = forge.encrypted(#"{"id":1,"result":{}}"#)
        garbled[40] ^= 0xFF
        garbled[garbled.count - 1] ^= 0xFF
        #expect(try client.receivedDatagram(garbled) == .ignored(.undecryptable))
        #expect(try client.receivedDatagram([UInt8](hex: example.tokenReply)) == .ignored(.duplicateToken))
        #expect(client.phase == .awaitingInfo)
    }

    @Test func infoAcceptsThePortAsNumberOrString() throws {
        var client = try forge.clientAwaitingInfo()
        let reply = forge.encrypted(
            #"{"id":1,"result":{"model":"MH-SA00DCLB001W","sw_ver":"2.4.0","sa_id":"sa1","port":"37965"}}"#
        )
        let expected = ZhitingDeviceInfo(
            model: "MH-SA00DCLB001W",
            softwareVersion: "2.4.0",
            smartAssistantID: "sa1",
            port: 37965
        )
        #expect(try client.receivedDatagram(reply) == .infoReceived(expected, next: nil))
        #expect(expected.isSmartAssistant)
        #expect(client.phase == .finished)
        #expect(client.pendingRequest == nil)
    }

    @Test func refusesToAssignAServerToASmartAssistant() throws {
        var client = try forge.clientAwaitingInfo(goal: .assignServer(assignment))
        #expect(throws: ZhitingLANError.deviceIsSmartAssistant(model: "MH-SA00DCLB001W")) {
            try client.receivedDatagram(forge.encrypted(#"{"id":1,"result":{"model":"MH-SA00DCLB001W"}}"#))
        }
    }

    @Test func setServerRequestIsCompactJSONWithTheNextID() throws {
        var client = try forge.clientAwaitingInfo(goal: .assignServer(assignment))
        let step = try client.receivedDatagram(forge.encrypted(#"{"id":1,"result":{"model":"ZTSW3SLW001W"}}"#))
        guard case .infoReceived(_, let next?) = step else {
            Issue.record("expected a set_prop.server request, got \(step)")
            return
        }
        let plaintext = try TestCipher.decrypt(
            try ZhitingPacket(decoding: next).payload,
            secret: example.tokenValue.bytes
        )
        #expect(
            String(decoding: plaintext, as: UTF8.self) == """
                {"method":"set_prop.server","params":{"server":"gz.sc.zhitingtech.com","port":54321,\
                "access_token":"ACCESS","area_id":"123"},"id":2}
                """
        )
    }

    @Test func confirmationNeedsTheEchoedServerAndPort() throws {
        var client = try forge.clientAwaitingConfirmation(assignment)
        let echo = forge.encrypted(
            #"{"id":2,"result":{"server":"gz.sc.zhitingtech.com","port":54321,"area_id":"123"}}"#
        )
        #expect(try client.receivedDatagram(echo) == .serverConfirmed(assignment.echo))
        #expect(client.phase == .finished)
    }

    @Test func anotherEchoedServerIsAMismatch() throws {
        var client = try forge.clientAwaitingConfirmation(assignment)
        let echo = forge.encrypted(#"{"id":2,"result":{"server":"evil.example","port":54321}}"#)
        let expected = ZhitingLANError.serverMismatch(
            expected: assignment.echo,
            echoed: ZhitingServerEcho(server: "evil.example", port: 54321)
        )
        #expect(throws: expected) { try client.receivedDatagram(echo) }
        #expect(client.phase == .finished)
    }

    @Test func aResultWithoutServerAndPortIsNotAConfirmation() throws {
        var client = try forge.clientAwaitingConfirmation(assignment)
        #expect(throws: ZhitingLANError.serverNotEchoed) {
            try client.receivedDatagram(forge.encrypted(#"{"id":2,"result":{"area_id":"123"}}"#))
        }
    }

    @Test func anErrorObjectIsARejection() throws {
        var client = try forge.clientAwaitingConfirmation(assignment)
        #expect(throws: ZhitingLANError.deviceRejected(code: -3, message: "busy")) {
            try client.receivedDatagram(forge.encrypted(#"{"id":2,"error":{"code":-3,"message":"busy"}}"#))
        }
    }

    @Test func assignmentTextNeverShowsTheAccessToken() {
        let secretive = ZhitingServerAssignment(
            server: "h",
            port: 1,
            accessToken: "TOKEN-123",
            areaID: "a",
            mqtt: ZhitingMQTTSettings(server: "h:1883", password: "MQTT-PW")
        )
        var dumped = ""
        dump(secretive, to: &dumped)
        for text in [secretive.description, "\(secretive)", String(reflecting: secretive), dumped] {
            #expect(!text.contains("TOKEN-123") && !text.contains("MQTT-PW"), "\(text)")
        }
    }
}
