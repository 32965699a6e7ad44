/// One entry of the `cap` array in `proto-ver`, e.g. `no_pop` or `wifi_scan`.
///
/// An open set: firmware and applications add their own strings, which are kept verbatim.
public struct ProtocommCapability: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The string as it appears in `cap`.
    public let rawValue: String

    /// Any capability string, known or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Security 0: the device runs without encryption.
    public static let noSecurity = ProtocommCapability(rawValue: "no_sec")
    /// Security 1 without a proof of possession.
    public static let noProofOfPossession = ProtocommCapability(rawValue: "no_pop")
    /// The device can scan for Wi-Fi networks (`prov-scan`).
    public static let wifiScan = ProtocommCapability(rawValue: "wifi_scan")
    /// network_provisioning builds that provision Wi-Fi.
    public static let wifiProvisioning = ProtocommCapability(rawValue: "wifi_prov")
    /// network_provisioning builds that provision Thread.
    public static let threadProvisioning = ProtocommCapability(rawValue: "thread_prov")
    /// network_provisioning builds that scan for Thread networks.
    public static let threadScan = ProtocommCapability(rawValue: "thread_scan")

    /// The capability string.
    public var description: String { rawValue }
}
