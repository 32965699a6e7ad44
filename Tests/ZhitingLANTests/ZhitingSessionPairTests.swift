import TestSupport
import Testing
import ZhitingLAN

/// Client and device responder joined directly (h11's ConnectionPair): every combination of
/// request framing and reply checksum convention must complete the hand-off.
@Suite struct ZhitingSessionPairTests {
    let example = WorkedExample.shared

    static let framings = ZhitingReservedVariant.allCases.flatMap { reserved in
        ZhitingChecksumConvention.allCases.map { ZhitingRequestFraming(reserved: reserved, checksum: $0) }
    }

    func responder(replyChecksum: ZhitingChecksumConvention, serverReply: ZhitingDeviceResponder.ServerReply = .echo)
        -> ZhitingDeviceResponder
    {
        let info = ZhitingDeviceInfo(model: "ZTSW3SLW001W", softwareVersion: "1.0.0", hardwareVersion: "esp32c3")
        return ZhitingDeviceResponder(
            profile: .init(deviceID: example.id, token: example.tokenValue, info: info, replyChecksum: replyChecksum),
            serverReply: serverReply
        )
    }

    /// Runs the exchange until the client stops asking; returns every step.
    func converse(_ client: inout ZhitingLANClient, with device: inout ZhitingDeviceResponder) throws
        -> [ZhitingLANClient.Step]
    {
        var outgoing: [UInt8]? = client.start()
        var steps: [ZhitingLANClient.Step] = []
        while let request = outgoing, let reply = device.receivedDatagram(request) {
            let step = try client.receivedDatagram(reply)
            steps.append(step)
            switch step {
            case .tokenReceived(let next): outgoing = next
            case .infoReceived(_, let next): outgoing = next
            case .serverConfirmed, .ignored: outgoing = nil
            }
        }
        return steps
    }

    @Test(arguments: framings, ZhitingChecksumConvention.allCases)
    func handOffCompletes(framing: ZhitingRequestFraming, replyChecksum: ZhitingChecksumConvention) throws {
        let assignment = ZhitingServerAssignment(
            server: "gz.sc.zhitingtech.com",
            port: 54321,
            accessToken: "tok\"en\\",
            areaID: "area\n1",
            mqtt: ZhitingMQTTSettings(server: "gz.sc.zhitingtech.com:1883", password: "")
        )
        var client = ZhitingLANClient(
            deviceID: example.id,
            sessionKey: example.key,
            goal: .assignServer(assignment),
            framing: framing
        )
        var device = responder(replyChecksum: replyChecksum)
        let steps = try converse(&client, with: &device)
        #expect(steps.count == 3)
        #expect(steps.last == .serverConfirmed(assignment.echo))
        #expect(device.assignment == assignment)
    }

    @Test func discoveryStopsAfterTheInfo() throws {
        var client = ZhitingLANClient(deviceID: example.id, sessionKey: example.key, goal: .readInfo)
        var device = responder(replyChecksum: .sessionKey)
        let steps = try converse(&client, with: &device)
        let info = ZhitingDeviceInfo(model: "ZTSW3SLW001W", softwareVersion: "1.0.0", hardwareVersion: "esp32c3")
        #expect(steps.last == .infoReceived(info, next: nil))
        #expect(device.assignment == nil)
    }

    @Test func repliesCarryTheConventionTheDeviceWasGiven() throws {
        for convention in ZhitingChecksumConvention.allCases {
            var device = responder(replyChecksum: convention)
            let answer = device.receivedDatagram([UInt8](hex: example.tokenRequest))
            let reply = try #require(answer)
            let packet = try ZhitingPacket(decoding: reply)
            #expect(ZhitingChecksumConvention.recognize(in: packet, sessionKey: example.key) == convention)
        }
    }

    @Test func faultyDevicesEndTheHandOffWithTheirOwnError() throws {
        let assignment = ZhitingServerAssignment(
            server: "gz.sc.zhitingtech.com",
            port: 54321,
            accessToken: "t",
            areaID: "1"
        )
        let cases: [(ZhitingDeviceResponder.ServerReply, ZhitingLANError)] = [
            (
                .echoServer("other.example"),
                .serverMismatch(
                    expected: assignment.echo,
                    echoed: ZhitingServerEcho(server: "other.example", port: 54321)
                )
            ),
            (.error(code: 5, message: "no"), .deviceRejected(code: 5, message: "no")),
        ]
        for (serverReply, expected) in cases {
            var client = ZhitingLANClient(
                deviceID: example.id,
                sessionKey: example.key,
                goal: .assignServer(assignment)
            )
            var device = responder(replyChecksum: .packetDigest, serverReply: serverReply)
            #expect(throws: expected) { try converse(&client, with: &device) }
        }
    }

    @Test func aSilentDeviceLeavesTheRequestPending() throws {
        let assignment = ZhitingServerAssignment(server: "s", port: 54321, accessToken: "t", areaID: "1")
        var client = ZhitingLANClient(deviceID: example.id, sessionKey: example.key, goal: .assignServer(assignment))
        var device = responder(replyChecksum: .packetDigest, serverReply: .silent)
        _ = try converse(&client, with: &device)
        #expect(client.phase == .awaitingConfirmation)
        #expect(device.assignment == assignment)
        let resent = try #require(client.pendingRequest)
        #expect(device.receivedDatagram(resent) == nil)
    }

    @Test func responderIgnoresOtherDevicesAndGarbage() {
        var device = responder(replyChecksum: .packetDigest)
        var otherToken = [UInt8](hex: example.tokenRequest)
        otherToken[6] = 0
        #expect(device.receivedDatagram(otherToken) == nil)
        #expect(device.receivedDatagram([1, 2, 3]) == nil)
        #expect(device.receivedDatagram([UInt8](hex: example.getInfoRequestReservedZero)) != nil)
    }
}
