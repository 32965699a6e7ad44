import DBus

/// The GATT service and the two characteristics a protocol needs: one to write, one that notifies.
public struct BlueZGATTProfile: Sendable, Hashable {
    /// The service UUID.
    public var service: String
    /// The characteristic written with response.
    public var writeCharacteristic: String
    /// The characteristic whose notifications carry the answers.
    public var notifyCharacteristic: String

    /// Describes a profile; UUIDs may be 16-bit (`ff01`) or full.
    public init(service: String, writeCharacteristic: String, notifyCharacteristic: String) {
        self.service = BluetoothUUID.normalized(service)
        self.writeCharacteristic = BluetoothUUID.normalized(writeCharacteristic)
        self.notifyCharacteristic = BluetoothUUID.normalized(notifyCharacteristic)
    }

    /// BluFi: service 0xFFFF, phone→device writes on 0xFF01, device→phone notifications on 0xFF02.
    public static let bluFi = BlueZGATTProfile(
        service: "ffff", writeCharacteristic: "ff01", notifyCharacteristic: "ff02")

    /// The profile's objects under `device`, or nil when the tree lacks any of them.
    func locate(on device: DBusObjectPath, in tree: BlueZObjectTree) -> (
        write: BlueZGATTCharacteristic, notify: BlueZGATTCharacteristic
    )? {
        for service in tree.services(of: device) where service.uuid == self.service {
            let characteristics = tree.characteristics(of: service.path)
            if let write = characteristics.first(where: { $0.uuid == writeCharacteristic }),
                let notify = characteristics.first(where: { $0.uuid == notifyCharacteristic })
            {
                return (write, notify)
            }
        }
        return nil
    }
}
