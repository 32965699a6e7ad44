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
    /// A remote GATT descriptor.
    public static let gattDescriptor = "org.bluez.GattDescriptor1"
    /// Where agents are registered.
    public static let agentManagerPath = DBusObjectPath("/org/bluez")!
    /// The agent-manager interface.
    public static let agentManager = "org.bluez.AgentManager1"
    /// The interface a pairing agent serves.
    public static let agent = "org.bluez.Agent1"
    /// The standard object-manager interface bluetoothd exports at `/`.
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    /// The standard properties interface.
    public static let properties = "org.freedesktop.DBus.Properties"
}
