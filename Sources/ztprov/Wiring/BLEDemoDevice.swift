import DeviceEmulator
import Provisioning
import Transports

/// A BLE protocol's emulated device in `ztprov demo`: the `ble` options a person would give for it (its
/// secrets aside, which the demo hands over already read) and an in-memory link to it. The demo runs the
/// protocol's own `ble` entry over that link, so it shows exactly what `ble` does.
struct BLEDemoDevice: Sendable {
    /// `ble`'s options for this device, beyond `--ssid` and `--protocol`.
    let arguments: [String]
    /// The QR payload the device's label would carry.
    let qr: ESPProvisioningQRPayload?
    let link: DemoBLELink

    init(arguments: [String] = [], qr: ESPProvisioningQRPayload? = nil, link: DemoBLELink) {
        self.arguments = arguments
        self.qr = qr
        self.link = link
    }
}

/// An emulated device as a flow's link: every connection reaches the same in-memory peripheral.
struct DemoBLELink: BLELink {
    /// The peripheral behind the link.
    enum Peripheral: Sendable {
        /// A BluFi device, which runs its own loop while connected.
        case bluFi(InMemoryBluFiPeripheral)
        case other(any GATTConnection)
    }

    let peripheral: Peripheral

    var peer: BLEPeer { BLEPeer(address: "demo", name: "emulated ESP32") }

    func connected<Result: Sendable>(
        _ policy: BLEConnectionPolicy, _ body: @Sendable (any GATTConnection) async throws -> Result
    ) async throws -> Result {
        switch peripheral {
        case .bluFi(let device): try await device.run { try await body(device) }
        case .other(let connection): try await body(connection)
        }
    }
}
