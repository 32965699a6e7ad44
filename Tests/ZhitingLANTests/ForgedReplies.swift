import TestSupport
import ZhitingLAN

/// Builds device replies by hand, the way a spoofer or a differently written firmware would.
struct ForgedReplies {
    let example = WorkedExample.shared

    func encrypted(_ json: String, from id: ZhitingDeviceID? = nil, reserved: UInt16 = 0) -> [UInt8] {
        ZhitingPacket(
            reserved: reserved,
            deviceID: id ?? example.id,
            checksumField: [],
            payload: TestCipher.encrypt(Array(json.utf8), secret: example.tokenValue.bytes)
        ).withPacketDigest().encoded()
    }

    /// A client that has its token and awaits the reply to request `1` (get_prop.info).
    func clientAwaitingInfo(goal: ZhitingLANClient.Goal = .readInfo) throws -> ZhitingLANClient {
        var client = ZhitingLANClient(deviceID: example.id, sessionKey: example.key, goal: goal)
        _ = client.start()
        _ = try client.receivedDatagram([UInt8](hex: example.tokenReply))
        return client
    }

    /// A client that has sent `set_prop.server` as request `2`.
    func clientAwaitingConfirmation(_ assignment: ZhitingServerAssignment) throws -> ZhitingLANClient {
        var client = try clientAwaitingInfo(goal: .assignServer(assignment))
        _ = try client.receivedDatagram(encrypted(#"{"id":1,"result":{"model":"ZTSW3SLW001W"}}"#))
        return client
    }
}
