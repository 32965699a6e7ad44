import Provisioning
import Transports

/// A toy BLE protocol only the tests speak, served by the harness's echo peripheral
/// (`Tests/Harness/ztharness/echo_device.py`): write a phrase to the device's one characteristic and read
/// it back. It proves a protocol plugs into `ble`, `batch` and `scan` by its conformer and its entry alone.
struct EchoBLEFlow: BLEProvisioningFlow {
    static let bleProtocol = BLEProtocol(
        rawValue: "echo", description: "Echo", serviceUUID: "ec40ec40-0000-4000-8000-00000000ec40")
    static let characteristicUUID = "ec40ec40-0001-4000-8000-00000000ec40"

    let phrase: String

    var connectionPolicy: BLEConnectionPolicy {
        BLEConnectionPolicy(requiredServices: [Self.bleProtocol.serviceUUID])
    }

    /// The phrase as the device read it back.
    func run(with link: any BLELink, deadline: ContinuousClock.Instant) async throws -> String {
        try await link.connected(connectionPolicy) { connection in
            guard let echo = connection.service(Self.bleProtocol.serviceUUID)?.characteristic(Self.characteristicUUID)
            else {
                throw ProvisioningError(
                    .bleServicesMissing, "The device has no echo characteristic.", hint: "Check the device.")
            }
            try await connection.write(Array(phrase.utf8), to: echo, type: .withResponse, until: deadline)
            return String(decoding: try await connection.read(echo, until: deadline), as: UTF8.self)
        }
    }
}
