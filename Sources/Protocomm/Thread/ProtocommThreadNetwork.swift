/// One Thread network from a device scan (`ThreadScanResult`).
public struct ProtocommThreadNetwork: Hashable, Sendable {
    public var networkName: String
    public var panID: UInt32
    /// The extended PAN ID's bytes (8 on a well-formed answer).
    public var extendedPANID: [UInt8]
    public var channel: UInt32
    /// Signal strength in dBm.
    public var rssi: Int32
    /// Link quality indicator, 0–255.
    public var lqi: UInt32
    /// The answering router's extended address.
    public var extendedAddress: [UInt8]

    public init(
        networkName: String, panID: UInt32, extendedPANID: [UInt8], channel: UInt32, rssi: Int32, lqi: UInt32,
        extendedAddress: [UInt8]
    ) {
        self.networkName = networkName
        self.panID = panID
        self.extendedPANID = extendedPANID
        self.channel = channel
        self.rssi = rssi
        self.lqi = lqi
        self.extendedAddress = extendedAddress
    }
}

extension ProtocommThreadNetwork {
    init(_ wire: WireThreadScanResult) {
        self.init(
            networkName: wire.networkName, panID: wire.panID, extendedPANID: wire.extPanID.byteArray,
            channel: wire.channel, rssi: wire.rssi, lqi: wire.lqi, extendedAddress: wire.extAddr.byteArray)
    }
}
