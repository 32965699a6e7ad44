public import DBus

/// The bus name, object paths and interface names of bluetoothd's D-Bus API (BlueZ 5.x `doc/org.bluez.*`).
public enum BlueZNames {
    /// bluetoothd's well-known bus name.
    public static let service = "org.bluez"
    /// The namespace every BlueZ object lives under.
    public static let root = DBusObjectPath("/org/bluez")!
    /// The adapter interface (`/org/bluez/hciN`).
    public static let adapter = "org.bluez.Adapter1"
    /// The remote-device interface (`/org/bluez/hciN/dev_…`).
    public static let device = "org.bluez.Device1"
    /// A remote GATT service.
    public static let gattService = "org.bluez.GattService1"
    /// A remote GATT characteristic.
    public static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    /// The standard object-manager interface bluetoothd exports at `/`.
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    /// The standard properties interface.
    public static let properties = "org.freedesktop.DBus.Properties"
}

/// UUIDs in the 128-bit lower-case form BlueZ uses in `UUID` properties.
public enum BluetoothUUID {
    /// Expands a 16-bit UUID onto the Bluetooth base UUID (`ffff` → `0000ffff-0000-1000-8000-00805f9b34fb`).
    public static func expand(_ short: UInt16) -> String {
        let digits = String(short, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits + "-0000-1000-8000-00805f9b34fb"
    }

    /// Lower-cases a UUID and expands 16- and 32-bit forms, so UUIDs compare as text.
    public static func normalized(_ uuid: String) -> String {
        let lower = uuid.lowercased()
        switch lower.count {
        case 4: return "0000" + lower + "-0000-1000-8000-00805f9b34fb"
        case 8: return lower + "-0000-1000-8000-00805f9b34fb"
        default: return lower
        }
    }
}
