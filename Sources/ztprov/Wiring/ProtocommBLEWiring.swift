import Protocomm
import Provisioning

/// `ztprov ble` with an ESP provisioning device. The connection requires no service up front, since
/// firmware may choose its own service UUID; the flow finds the endpoints by their names.
extension BLEAdapterOptions {
    typealias ProtocommRun = BLEDeviceRun<ProtocommBLEOutcome>
    typealias ProtocommThreadRun = BLEDeviceRun<ProtocommThreadBLEOutcome>

    /// What the protocomm flow is to do, settled before the scan.
    struct ProtocommPlan: Sendable {
        /// The network the device is to join.
        enum Network: Sendable {
            case wifi(ProtocommWiFiRequest)
            case thread(ProtocommThreadRequest)
        }

        let network: Network
        let retryPassphrase: @Sendable () async throws -> Secret?
        /// Keep a bond made to reach a device that insists on pairing.
        let keepsBond: Bool
    }

    /// A Thread dataset goes to ESP protocomm devices only.
    static func threadNeedsProtocomm(_ chosen: BLEProtocol) -> ProvisioningError {
        ProvisioningError(
            .invalidOption, "--thread-dataset-file applies to ESP protocomm devices; this one speaks \(chosen).",
            hint: "Provision this device with --ssid and a Wi-Fi password.")
    }
}
