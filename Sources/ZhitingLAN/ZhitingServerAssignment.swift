import FoundationEssentials
internal import JSONWriting

/// The `set_prop.server` parameters: which cloud server the device joins and with what credentials.
///
/// The access token and MQTT password are secrets: no textual form of this value shows them.
public struct ZhitingServerAssignment: Sendable, Equatable, Decodable, CustomStringConvertible, CustomReflectable {
    /// Host name only, no scheme or port: `gz.sc.zhitingtech.com` for the release SC.
    public var server: String
    /// 54321 in every app version.
    public var port: Int
    /// The SC device access token.
    public var accessToken: String
    /// The SC area ("home") the device joins, sent as a string.
    public var areaID: String
    /// Extra parameters for devices that talk MQTT; nil for the rest.
    public var mqtt: ZhitingMQTTSettings?

    public init(server: String, port: Int, accessToken: String, areaID: String, mqtt: ZhitingMQTTSettings? = nil) {
        self.server = server
        self.port = port
        self.accessToken = accessToken
        self.areaID = areaID
        self.mqtt = mqtt
    }

    /// The part a device must echo for the hand-off to count as confirmed.
    public var echo: ZhitingServerEcho { ZhitingServerEcho(server: server, port: port) }

    /// Params in the apps' key order: server, port, access_token, area_id, then the MQTT keys.
    var params: JSONValue {
        var members: [JSONField] = [
            JSONField("server", .string(server)),
            JSONField("port", .int(port)),
            JSONField("access_token", .string(accessToken)),
            JSONField("area_id", .string(areaID)),
        ]
        if let mqtt {
            members += [
                JSONField("mode", .string(mqtt.mode)),
                JSONField("mqtt_server", .string(mqtt.server)),
                JSONField("mqtt_password", .string(mqtt.password)),
            ]
        }
        return .object(members)
    }

    public var description: String { "server \(server):\(port), area \(areaID), access token <redacted>" }
    public var customMirror: Mirror { Mirror(self, children: ["server": server, "port": port, "areaID": areaID]) }

    enum CodingKeys: String, CodingKey {
        case server, port
        case accessToken = "access_token"
        case areaID = "area_id"
        case mode
        case mqttServer = "mqtt_server"
        case mqttPassword = "mqtt_password"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        server = try container.decode(String.self, forKey: .server)
        guard let port = container.decodeLenientInteger(forKey: .port) else {
            throw DecodingError.keyNotFound(CodingKeys.port, .init(codingPath: [], debugDescription: "port"))
        }
        self.port = port
        accessToken = try container.decode(String.self, forKey: .accessToken)
        areaID = try container.decode(String.self, forKey: .areaID)
        let mqttServer = try container.decodeIfPresent(String.self, forKey: .mqttServer) ?? ""
        if !mqttServer.isEmpty {
            mqtt = ZhitingMQTTSettings(
                server: mqttServer,
                password: try container.decodeIfPresent(String.self, forKey: .mqttPassword) ?? "",
                mode: try container.decodeIfPresent(String.self, forKey: .mode) ?? "cloud"
            )
        }
    }
}

/// The MQTT parameters iOS adds for devices whose catalogue entry says `protocol == "mqtt"`.
public struct ZhitingMQTTSettings: Sendable, Equatable {
    /// `host:port`, such as `gz.sc.zhitingtech.com:1883`.
    public var server: String
    /// A secret; iOS sends an empty string.
    public var password: String
    /// `cloud` in every known version.
    public var mode: String

    public init(server: String, password: String, mode: String = "cloud") {
        self.server = server
        self.password = password
        self.mode = mode
    }
}

/// The server and port a device repeats in its `set_prop.server` result.
public struct ZhitingServerEcho: Sendable, Equatable, Decodable, CustomStringConvertible {
    public var server: String?
    public var port: Int?

    public init(server: String?, port: Int?) {
        self.server = server
        self.port = port
    }

    enum CodingKeys: String, CodingKey {
        case server, port
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        server = try? container.decodeIfPresent(String.self, forKey: .server)
        port = container.decodeLenientInteger(forKey: .port)
    }

    public var description: String { "\(server ?? "<none>"):\(port.map(String.init) ?? "<none>")" }
}
