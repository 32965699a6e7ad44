/// How the device should scan (`CmdScanStart`).
public struct ProtocommWiFiScanOptions: Hashable, Sendable {
    /// The HTTP reply waits until the scan has finished (seconds: use a generous read timeout).
    public var blocking: Bool
    /// Listen for beacons instead of sending probe requests.
    public var passive: Bool
    /// Channels scanned at a time, with pauses so the SoftAP keeps beaconing; 0 scans all at once.
    public var groupChannels: UInt32
    /// Dwell time per channel.
    public var periodMilliseconds: UInt32

    /// Defaults follow esp_prov over SoftAP and Espressif's advice of a few channels per group.
    public init(
        blocking: Bool = true, passive: Bool = false, groupChannels: UInt32 = 4, periodMilliseconds: UInt32 = 120
    ) {
        self.blocking = blocking
        self.passive = passive
        self.groupChannels = groupChannels
        self.periodMilliseconds = periodMilliseconds
    }
}

extension ProtocommWiFiScanOptions {
    init(_ wire: WireCmdScanStart) {
        self.init(
            blocking: wire.blocking, passive: wire.passive, groupChannels: wire.groupChannels,
            periodMilliseconds: wire.periodMs)
    }

    var wire: WireCmdScanStart {
        var wire = WireCmdScanStart()
        wire.blocking = blocking
        wire.passive = passive
        wire.groupChannels = groupChannels
        wire.periodMs = periodMilliseconds
        return wire
    }
}
