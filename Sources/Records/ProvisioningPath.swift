/// Which way the host talked to the device.
public enum ProvisioningPath: String, Sendable, Equatable, Codable, CaseIterable {
    case ble
    case softAP = "softap"
}
