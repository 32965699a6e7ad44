public import ZhitingLAN

/// Everything the hand-off sends a device: the cloud server and the credentials to join it.
public struct LANHandoffRequest: Sendable, Equatable {
    public var target: LANTarget
    /// The SC host name (no scheme, no port), `gz.sc.zhitingtech.com` by default.
    public var server: String
    /// The port the device connects to on `server`; 54321 in every app version.
    public var port: Int
    public var accessToken: Secret
    public var areaID: String
    /// Extra parameters for devices that talk MQTT; nil for the rest.
    public var mqtt: LANMQTTSettings?

    /// The SC host the 2.0.0 apps hand devices to.
    public static let defaultServer = "gz.sc.zhitingtech.com"
    public static let defaultServerPort = 54321

    public init(
        target: LANTarget,
        server: String = defaultServer,
        port: Int = defaultServerPort,
        accessToken: Secret,
        areaID: String,
        mqtt: LANMQTTSettings? = nil
    ) {
        self.target = target
        self.server = server
        self.port = port
        self.accessToken = accessToken
        self.areaID = areaID
        self.mqtt = mqtt
    }

    /// The protocol-level parameters; the only place the secrets are revealed.
    var assignment: ZhitingServerAssignment {
        ZhitingServerAssignment(
            server: server,
            port: port,
            accessToken: accessToken.revealed(),
            areaID: areaID,
            mqtt: mqtt.map { ZhitingMQTTSettings(server: $0.server, password: $0.password.revealed()) }
        )
    }
}

/// The MQTT parameters iOS adds for devices whose catalogue entry says `protocol == "mqtt"`.
public struct LANMQTTSettings: Sendable, Equatable {
    /// `host:port`, such as `gz.sc.zhitingtech.com:1883`.
    public var server: String
    public var password: Secret

    public init(server: String, password: Secret) {
        self.server = server
        self.password = password
    }
}

/// A confirmed hand-off: which device, what it reported, what it echoed.
public struct LANHandoffResult: Sendable, Equatable {
    public var device: LANDevice
    public var info: ZhitingDeviceInfo
    public var echo: ZhitingServerEcho
}
