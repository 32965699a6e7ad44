/// Everything that makes one emulated device differ from another: its security, what `proto-ver`
/// says, which endpoints exist and how its Wi-Fi behaves.
public struct ProtocommDeviceConfiguration: Hashable, Sendable {
    /// The scheme the device runs and the secret it stores.
    public var security: ProtocommDeviceSecurity
    /// `prov.ver`: `v1.1` (wifi_provisioning) or `netprov-v1.2` (network_provisioning, adds `wifi_prov`).
    public var managerVersion: String
    /// Send `sec_ver` (ESP-IDF 5.0 and later).
    public var reportsSecurityVersion: Bool
    /// Send `sec_patch_ver` (firmware with the security 2 nonce fix; optional in network_provisioning).
    public var reportsPatchVersion: Bool
    /// Register `prov-ctrl` (ESP-IDF 5.1 and later); without it the endpoint is a 404.
    public var hasControlEndpoint: Bool
    /// Application endpoints that answer `SUCCESS\0` like the official example's `custom-data`.
    public var customEndpoints: Set<String>
    /// How scans, joins and control commands behave.
    public var wifi: ProtocommDeviceWiFiPlan

    /// A stock ESP-IDF 5.x manager unless told otherwise.
    public init(
        security: ProtocommDeviceSecurity,
        managerVersion: String = "v1.1",
        reportsSecurityVersion: Bool = true,
        reportsPatchVersion: Bool = true,
        hasControlEndpoint: Bool = true,
        customEndpoints: Set<String> = ["custom-data"],
        wifi: ProtocommDeviceWiFiPlan = ProtocommDeviceWiFiPlan()
    ) {
        self.security = security
        self.managerVersion = managerVersion
        self.reportsSecurityVersion = reportsSecurityVersion
        self.reportsPatchVersion = reportsPatchVersion
        self.hasControlEndpoint = hasControlEndpoint
        self.customEndpoints = customEndpoints
        self.wifi = wifi
    }

    /// What this device answers on `proto-ver`, built the way the manager builds it.
    public var versionInfo: ProtocommVersionInfo {
        var capabilities: [ProtocommCapability] = []
        switch security {
        case .security0: capabilities.append(.noSecurity)
        case .security1(let pop) where pop.isEmpty: capabilities.append(.noProofOfPossession)
        case .security1, .security2: break
        }
        if managerVersion.hasPrefix("netprov") { capabilities.append(.wifiProvisioning) }
        capabilities.append(.wifiScan)
        let patch: Int =
            switch security {
            case .security2(_, let patch): patch.rawValue
            case .security0, .security1: 0
            }
        return ProtocommVersionInfo(
            version: managerVersion,
            securityVersion: reportsSecurityVersion ? security.level.rawValue : nil,
            securityPatchVersion: reportsPatchVersion ? patch : nil,
            capabilities: capabilities)
    }
}
