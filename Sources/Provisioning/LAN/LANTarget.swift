public import Transports
public import ZhitingLAN

/// Which device a LAN flow talks to, and how to reach it.
public struct LANTarget: Sendable, Equatable {
    /// The device to hand off; nil accepts whichever device answers a unicast hello.
    public var deviceID: ZhitingDeviceID?
    /// Ask this address directly instead of broadcasting (a device on another subnet, or a test).
    public var address: DatagramEndpoint?
    /// The UDP port devices listen on; the destination of the broadcast hello.
    public var port: UInt16

    /// The port every Zhiting device and hub listens on.
    public static let standardPort: UInt16 = 54321

    public init(deviceID: ZhitingDeviceID? = nil, address: DatagramEndpoint? = nil, port: UInt16 = standardPort) {
        self.deviceID = deviceID
        self.address = address
        self.port = port
    }

    /// Where hellos go.
    var helloDestination: DatagramDestination {
        address.map(DatagramDestination.unicast) ?? .broadcast(port: port)
    }

    /// Devices answer from the port they listen on (iOS drops anything else), so replies from other
    /// ports or, for a unicast target, other hosts are not theirs.
    func acceptsReply(from source: DatagramEndpoint) -> Bool {
        if let address { return source == address }
        return source.port == port
    }
}

/// A device that answered the hello: who it is and where it answered from.
public struct LANDevice: Sendable, Equatable {
    public var id: ZhitingDeviceID
    public var endpoint: DatagramEndpoint
    /// The model a Smart Assistant names in its plaintext hello reply; nil for devices.
    public var helloModel: String?

    public init(id: ZhitingDeviceID, endpoint: DatagramEndpoint, helloModel: String? = nil) {
        self.id = id
        self.endpoint = endpoint
        self.helloModel = helloModel
    }
}
