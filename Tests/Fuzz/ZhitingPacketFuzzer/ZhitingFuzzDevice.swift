import CryptoPrimitives
import ZhitingLAN

/// The device side the harness plays: the worked example's identities, and genuine replies that
/// move a client into each state before the fuzzer's datagrams arrive.
enum ZhitingFuzzDevice {
    static let deviceID = ZhitingDeviceID(bytes: [0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6])!
    static let sessionKey = try! ZhitingSessionKey("abcdefghijklmnop")
    static let token = Array("0123456789abcdef".utf8)
    static let assignment = ZhitingServerAssignment(
        server: "sc.example.test", port: 54321, accessToken: "ACCESS", areaID: "123")

    /// Discovery awaiting the token; hand-off awaiting the token, the info and the server echo.
    static let starts: [ZhitingLANClient] = {
        var discovery = ZhitingLANClient(deviceID: deviceID, sessionKey: sessionKey, goal: .readInfo)
        var handoff = ZhitingLANClient(deviceID: deviceID, sessionKey: sessionKey, goal: .assignServer(assignment))
        _ = discovery.start()
        _ = handoff.start()
        var awaitingInfo = handoff
        _ = try? awaitingInfo.receivedDatagram(packet(reserved: 0, payload: token, secret: sessionKey.bytes))
        var awaitingEcho = awaitingInfo
        let info = Array(#"{"id":1,"result":{"model":"MH-SW0001"}}"#.utf8)
        _ = try? awaitingEcho.receivedDatagram(packet(reserved: 0, payload: info, secret: token))
        precondition(awaitingInfo.phase == .awaitingInfo && awaitingEcho.phase == .awaitingConfirmation)
        return [discovery, handoff, awaitingInfo, awaitingEcho]
    }()

    /// A reply datagram to the client: `payload` encrypted as the protocol does under `secret`
    /// (key = MD5(secret), IV = MD5(key ‖ secret)), framed with the device's ID.
    static func packet(reserved: UInt16, payload: [UInt8], secret: [UInt8]) -> [UInt8] {
        let key = Digest.md5(secret)
        let ciphertext = (try? AES.CBC.encrypt(payload, key: key, iv: Digest.md5(key + secret))) ?? []
        let size = ZhitingPacket.maximumSize - ZhitingPacket.headerSize
        return ZhitingPacket(
            reserved: reserved, deviceID: deviceID, checksumField: [], payload: Array(ciphertext.prefix(size))
        ).encoded()
    }
}
