internal import JSONWriting

/// The JSON-RPC methods the hand-off uses; devices may know more, but nothing else is documented.
public enum ZhitingMethod: String, Sendable, Equatable {
    /// Asks the device to describe itself (model, versions, SA ID, port).
    case getInfo = "get_prop.info"
    /// Tells the device which cloud server to join, with the credentials to do so.
    case setServer = "set_prop.server"
}

/// Builds the JSON-RPC request texts exactly as the apps lay them out.
enum ZhitingRequestText {
    /// `{"method":…,"params":…,"id":…}` in that key order, compact.
    static func make(_ method: ZhitingMethod, params: JSONValue, id: Int) -> [UInt8] {
        Array(
            JSONValue.object([
                JSONField("method", .string(method.rawValue)),
                JSONField("params", params),
                JSONField("id", .int(id)),
            ]).serialized.utf8)
    }
}
