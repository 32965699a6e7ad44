import Protocomm
import Provisioning

/// `ztprov ble` with an ESP provisioning device. The connection requires no service up front, since
/// firmware may choose its own service UUID; the flow finds the endpoints by their names.
extension BLEAdapterOptions {
    /// What a protocomm run established, and with which device.
    struct ProtocommRun: Sendable {
        let name: String?
        let address: String
        let outcome: ProtocommBLEOutcome
    }

    /// What the protocomm flow is to do, settled before the scan.
    struct ProtocommPlan: Sendable {
        let wifi: ProtocommWiFiRequest
        let retryPassphrase: @Sendable () async throws -> Secret?
        /// Keep a bond made to reach a device that insists on pairing.
        let keepsBond: Bool
    }
}
