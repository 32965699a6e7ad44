import BlueZ
import Transports

/// The mock's peripherals run BluFi: the service they advertise, and its two characteristics reached
/// through the generic connection the way the BluFi flow's link reaches them.
extension BlueZScanFilter {
    static let bluFiServiceUUID = BluetoothUUID.expand(0xFFFF)
    static let bluFi = BlueZScanFilter(serviceUUIDs: [bluFiServiceUUID])
}

extension BlueZGATTConnection {
    func bluFiCharacteristic(_ uuid: String) throws -> GATTCharacteristic {
        guard let found = service("ffff")?.characteristic(uuid) else {
            throw BlueZError.servicesMissing("no \(uuid) in \(services)")
        }
        return found
    }

    func bluFiNotifications() async throws -> AsyncThrowingStream<[UInt8], any Error> {
        try await subscribe(to: try bluFiCharacteristic("ff02"), until: .now + .seconds(5))
    }

    func writeBluFi(_ value: [UInt8]) async throws {
        try await write(value, to: try bluFiCharacteristic("ff01"), type: .withResponse, until: .now + .seconds(5))
    }
}
