import FoundationEssentials
internal import JSONWriting

/// What a device or hub says about itself in its `get_prop.info` result.
///
/// Every field is optional: devices, the SA and older firmwares each send a different subset.
/// `port` is an integer from the SA but a string in the apps' models, so both are accepted.
public struct ZhitingDeviceInfo: Sendable, Equatable, Decodable {
    public var model: String?
    public var softwareVersion: String?
    public var hardwareVersion: String?
    /// The hub's ID; only Smart Assistant hubs send it.
    public var smartAssistantID: String?
    /// The hub's HTTP port; only Smart Assistant hubs send it.
    public var port: Int?

    public init(
        model: String?,
        softwareVersion: String? = nil,
        hardwareVersion: String? = nil,
        smartAssistantID: String? = nil,
        port: Int? = nil
    ) {
        self.model = model
        self.softwareVersion = softwareVersion
        self.hardwareVersion = hardwareVersion
        self.smartAssistantID = smartAssistantID
        self.port = port
    }

    /// True for Smart Assistant hubs (`MH-SA…`, or `smart_assistant` in SA 1.x), as iOS tells them apart.
    public var isSmartAssistant: Bool {
        guard let model else { return false }
        return model.hasPrefix("MH-SA") || model == "smart_assistant"
    }

    enum CodingKeys: String, CodingKey {
        case model
        case softwareVersion = "sw_ver"
        case hardwareVersion = "hw_ver"
        case smartAssistantID = "sa_id"
        case port
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        model = try? container.decodeIfPresent(String.self, forKey: .model)
        softwareVersion = try? container.decodeIfPresent(String.self, forKey: .softwareVersion)
        hardwareVersion = try? container.decodeIfPresent(String.self, forKey: .hardwareVersion)
        smartAssistantID = try? container.decodeIfPresent(String.self, forKey: .smartAssistantID)
        port = container.decodeLenientInteger(forKey: .port)
    }

    /// The `result` object a device would send; used by the device responder.
    var json: JSONValue {
        var members: [JSONField] = []
        if let model { members.append(JSONField("model", .string(model))) }
        if let softwareVersion { members.append(JSONField("sw_ver", .string(softwareVersion))) }
        if let hardwareVersion { members.append(JSONField("hw_ver", .string(hardwareVersion))) }
        if let smartAssistantID { members.append(JSONField("sa_id", .string(smartAssistantID))) }
        if let port { members.append(JSONField("port", .int(port))) }
        return .object(members)
    }
}

extension KeyedDecodingContainer {
    /// An integer sent either as a JSON number or as a string of digits; nil when absent or neither.
    func decodeLenientInteger(forKey key: Key) -> Int? {
        if let number = try? decodeIfPresent(Int.self, forKey: key) { return number }
        if let text = try? decodeIfPresent(String.self, forKey: key) { return Int(text) }
        return nil
    }
}
