import BlueZ

/// What one protocol's run established, and with which device: the same for every BLE protocol, so
/// `ble` reports each one's outcome next to the device's name and address.
struct BLEDeviceRun<Outcome: Sendable>: Sendable {
    let name: String?
    let address: String
    let outcome: Outcome

    init(_ device: BlueZDevice, outcome: Outcome) {
        self.name = device.name
        self.address = device.address
        self.outcome = outcome
    }
}
