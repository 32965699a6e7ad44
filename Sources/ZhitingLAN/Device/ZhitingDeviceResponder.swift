import FoundationEssentials
internal import JSONWriting

// Device-side rules, modelled on the SA hub's discovery server (zhiting-tech/smartassistant,
// `modules/sadiscover/server.go`) plus the set_prop.server behaviour the apps expect of devices:
// - answer the exact hello with reserved ffff, serial 1 and a plaintext {"model":…} payload;
// - answer a token request (reserved fffe, our ID) with the token wrapped under the ASCII key;
// - answer get_prop.info and set_prop.server encrypted with the token, echoing id and serial;
// - anything else (other IDs, undecryptable payloads, bad JSON, unknown methods) gets no reply.

/// The device side of the Zhiting LAN protocol, pure: a datagram in, the reply (if any) out.
///
/// Used by `DeviceEmulator` and the tests; ``ServerReply`` selects faulty behaviour for the hand-off.
public struct ZhitingDeviceResponder: Sendable {
    /// Who the emulated device is.
    public struct Profile: Sendable, Equatable {
        public var deviceID: ZhitingDeviceID
        public var token: ZhitingToken
        public var info: ZhitingDeviceInfo
        /// How the device fills the checksum field of its replies.
        public var replyChecksum: ZhitingChecksumConvention

        public init(
            deviceID: ZhitingDeviceID,
            token: ZhitingToken,
            info: ZhitingDeviceInfo,
            replyChecksum: ZhitingChecksumConvention = .packetDigest
        ) {
            self.deviceID = deviceID
            self.token = token
            self.info = info
            self.replyChecksum = replyChecksum
        }
    }

    /// How the device answers `set_prop.server`.
    public enum ServerReply: Sendable, Equatable {
        /// Echo server, port and area, as a working device does.
        case echo
        /// Echo this server instead of the one sent (a device that stored something else).
        case echoServer(String)
        /// Say nothing.
        case silent
        /// Answer with a miIO-style error object.
        case error(code: Int, message: String)
    }

    public let profile: Profile
    public var serverReply: ServerReply
    /// The last key a client sent in a token request.
    public private(set) var sessionKey: ZhitingSessionKey?
    /// The last server assignment received, whatever was answered.
    public private(set) var assignment: ZhitingServerAssignment?

    public init(profile: Profile, serverReply: ServerReply = .echo) {
        self.profile = profile
        self.serverReply = serverReply
    }

    /// The reply to `datagram`, or nil when the device stays silent.
    public mutating func receivedDatagram(_ datagram: [UInt8]) -> [UInt8]? {
        if datagram == ZhitingHello.request { return helloReply() }
        guard let packet = try? ZhitingPacket(decoding: datagram), packet.deviceID == profile.deviceID else {
            return nil
        }
        if packet.reserved == ZhitingPacket.tokenRequestReserved {
            return tokenReply(to: packet)
        }
        return requestReply(to: packet)
    }

    private func helloReply() -> [UInt8] {
        let model = JSONValue.object([JSONField("model", .string(profile.info.model ?? ""))])
        let packet = ZhitingPacket(
            reserved: ZhitingPacket.helloReserved,
            deviceID: profile.deviceID,
            serial: 1,
            checksumField: [],
            payload: Array(model.serialized.utf8)
        )
        return packet.withPacketDigest().encoded()
    }

    private mutating func tokenReply(to request: ZhitingPacket) -> [UInt8]? {
        guard let key = try? ZhitingSessionKey(String(decoding: request.checksumField, as: UTF8.self)) else {
            return nil
        }
        sessionKey = key
        let wrapped = ZhitingPayloadCipher(secret: key.bytes).encrypt(profile.token.bytes)
        return sealed(wrapped, serial: request.serial)
    }

    private mutating func requestReply(to packet: ZhitingPacket) -> [UInt8]? {
        let cipher = ZhitingPayloadCipher(secret: profile.token.bytes)
        guard let plaintext = try? cipher.decrypt(packet.payload),
            let request = try? JSONDecoder().decode(IncomingRequest.self, from: Data(plaintext)),
            let result = result(for: request, plaintext: plaintext)
        else { return nil }
        let reply = JSONValue.object([JSONField("id", .int(request.id ?? 0)), result])
        return sealed(cipher.encrypt(Array(reply.serialized.utf8)), serial: packet.serial)
    }

    private mutating func result(for request: IncomingRequest, plaintext: [UInt8]) -> JSONField? {
        switch ZhitingMethod(rawValue: request.method) {
        case .getInfo:
            return JSONField("result", profile.info.json)
        case .setServer:
            guard let params = try? JSONDecoder().decode(ServerParams.self, from: Data(plaintext)).params else {
                return nil
            }
            assignment = params
            return serverResult(for: params)
        case nil:
            return nil
        }
    }

    private func serverResult(for params: ZhitingServerAssignment) -> JSONField? {
        let echoedServer: String
        switch serverReply {
        case .silent:
            return nil
        case .error(let code, let message):
            return JSONField("error", .object([JSONField("code", .int(code)), JSONField("message", .string(message))]))
        case .echo:
            echoedServer = params.server
        case .echoServer(let other):
            echoedServer = other
        }
        return JSONField(
            "result",
            .object([
                JSONField("server", .string(echoedServer)),
                JSONField("port", .int(params.port)),
                JSONField("area_id", .string(params.areaID)),
            ]))
    }

    private func sealed(_ payload: [UInt8], serial: UInt32) -> [UInt8] {
        let packet = ZhitingPacket(
            reserved: 0,
            deviceID: profile.deviceID,
            serial: serial,
            checksumField: [],
            payload: payload
        )
        guard let sessionKey else { return packet.withPacketDigest().encoded() }
        return profile.replyChecksum.apply(to: packet, sessionKey: sessionKey).encoded()
    }

    private struct IncomingRequest: Decodable {
        var method: String
        var id: Int?
    }

    private struct ServerParams: Decodable {
        var params: ZhitingServerAssignment
    }
}
