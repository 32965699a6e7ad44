import FoundationEssentials

/// The broadcast that starts discovery, and the replies it draws.
public enum ZhitingHello {
    /// The fixed 32-byte hello, `21 31 00 20` then 28 × `ff`, identical to miIO's.
    public static let request: [UInt8] = [0x21, 0x31, 0x00, 0x20] + [UInt8](repeating: 0xFF, count: 28)

    /// Reads a datagram received while discovering.
    ///
    /// Apps take any well-formed packet as a reply and use only its device ID; the SA also puts
    /// `{"model":…}` in plaintext, which is returned when present. Returns nil for a hello request
    /// (our own broadcast looped back, or another client's).
    public static func reply(from datagram: [UInt8]) throws(ZhitingLANError) -> ZhitingHelloReply? {
        let packet = try ZhitingPacket(decoding: datagram)
        guard packet.deviceID != .broadcast else { return nil }
        let model = (try? JSONDecoder().decode(ModelOnly.self, from: Data(packet.payload)))?.model
        return ZhitingHelloReply(deviceID: packet.deviceID, model: model)
    }

    private struct ModelOnly: Decodable {
        var model: String?
    }
}

/// One device's answer to the hello.
public struct ZhitingHelloReply: Sendable, Equatable {
    public var deviceID: ZhitingDeviceID
    /// The model from a plaintext hello payload (Smart Assistant hubs send it); nil otherwise.
    public var model: String?

    public init(deviceID: ZhitingDeviceID, model: String?) {
        self.deviceID = deviceID
        self.model = model
    }
}
