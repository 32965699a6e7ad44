/// What the device said about its software, so a yield report can be split by firmware.
public struct FirmwareVersions: Sendable, Equatable, Codable {
    /// The BluFi version from GET_VERSION (`1.3`), BLE path only.
    public var bluFi: String?
    /// The protocomm application version from proto-ver (`v1.1`), SoftAP path only.
    public var protocomm: String?
    /// The firmware version from the LAN `get_prop.info`, when the hand-off ran.
    public var device: String?

    public init(bluFi: String? = nil, protocomm: String? = nil, device: String? = nil) {
        self.bluFi = bluFi
        self.protocomm = protocomm
        self.device = device
    }
}
