public import DBus
public import Transports

/// A Bluetooth adapter (`org.bluez.Adapter1`) as last seen.
public struct BlueZAdapter: Sendable, Hashable {
    /// `/org/bluez/hciN`.
    public var path: DBusObjectPath
    /// The properties as bluetoothd reports them.
    public var properties: [String: DBusValue]

    /// The kernel name, `hciN`.
    public var name: String { path.lastComponent }
    /// The controller address.
    public var address: String { properties["Address"]?.string ?? "" }
    /// Whether the adapter is on.
    public var isPowered: Bool { properties["Powered"]?.bool ?? false }
    /// `on`, `off`, `off-enabling`, `on-disabling` or `off-blocked` (rfkill); BlueZ ≥ 5.66 only.
    public var powerState: String? { properties["PowerState"]?.string }
    /// Whether a discovery session is running on the adapter (anyone's).
    public var isDiscovering: Bool { properties["Discovering"]?.bool ?? false }
}

/// A remote device (`org.bluez.Device1`) as last seen: what it advertised and its link state.
public struct BlueZDevice: Sendable, Hashable {
    /// `/org/bluez/hciN/dev_XX_XX_XX_XX_XX_XX`.
    public var path: DBusObjectPath
    /// The properties as bluetoothd reports them.
    public var properties: [String: DBusValue]

    /// The adapter the device was seen through.
    public var adapter: DBusObjectPath? { properties["Adapter"]?.objectPath }
    /// The device address.
    public var address: String { properties["Address"]?.string ?? "" }
    /// The advertised or cached name.
    public var name: String? { properties["Name"]?.string }
    /// The signal strength of the last advertisement, if one was seen in this discovery.
    public var rssi: Int? { properties["RSSI"]?.integer }
    /// Advertised and resolved service UUIDs, normalized.
    public var serviceUUIDs: [String] { properties["UUIDs"]?.strings?.map(BluetoothUUID.normalized) ?? [] }
    /// Advertised service data by service UUID, normalized.
    public var serviceData: [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for entry in properties["ServiceData"]?.entries ?? [] {
            if let uuid = entry.key.string, let bytes = entry.value.bytes {
                result[BluetoothUUID.normalized(uuid)] = bytes
            }
        }
        return result
    }
    /// Manufacturer data by company identifier.
    public var manufacturerData: [UInt16: [UInt8]] {
        var result: [UInt16: [UInt8]] = [:]
        for entry in properties["ManufacturerData"]?.entries ?? [] {
            if case .uint16(let company) = entry.key, let bytes = entry.value.bytes { result[company] = bytes }
        }
        return result
    }
    /// Whether a link is up.
    public var isConnected: Bool { properties["Connected"]?.bool ?? false }
    /// Whether GATT discovery finished for the current link.
    public var servicesResolved: Bool { properties["ServicesResolved"]?.bool ?? false }
    /// Whether a bond exists.
    public var isPaired: Bool { properties["Paired"]?.bool ?? false }
}

/// A remote GATT service (`org.bluez.GattService1`).
public struct BlueZGATTService: Sendable, Hashable {
    /// The service object.
    public var path: DBusObjectPath
    /// The properties as bluetoothd reports them.
    public var properties: [String: DBusValue]

    /// The device it belongs to.
    public var device: DBusObjectPath? { properties["Device"]?.objectPath }
    /// The service UUID, normalized.
    public var uuid: String { BluetoothUUID.normalized(properties["UUID"]?.string ?? "") }
}

/// A remote GATT characteristic (`org.bluez.GattCharacteristic1`).
public struct BlueZGATTCharacteristic: Sendable, Hashable {
    /// The characteristic object.
    public var path: DBusObjectPath
    /// The properties as bluetoothd reports them.
    public var properties: [String: DBusValue]

    /// The service it belongs to.
    public var service: DBusObjectPath? { properties["Service"]?.objectPath }
    /// The characteristic UUID, normalized.
    public var uuid: String { BluetoothUUID.normalized(properties["UUID"]?.string ?? "") }
    /// `read`, `write`, `notify`, `indicate`, `write-without-response` …
    public var flags: [String] { properties["Flags"]?.strings ?? [] }
    /// The flags that are characteristic properties; the rest (`reliable-write`, `encrypt-read` …) are
    /// extended properties and permissions.
    public var gattProperties: GATTCharacteristicProperties {
        flags.reduce(into: []) { properties, flag in
            if let property = Self.propertyFlags[flag] { properties.insert(property) }
        }
    }

    private static let propertyFlags: [String: GATTCharacteristicProperties] = [
        "broadcast": .broadcast, "read": .read, "write-without-response": .writeWithoutResponse,
        "write": .write, "notify": .notify, "indicate": .indicate,
        "authenticated-signed-writes": .authenticatedSignedWrites, "extended-properties": .extendedProperties,
    ]
    /// The link's ATT MTU, exported since BlueZ 5.62.
    public var mtu: Int? { properties["MTU"]?.integer }
    /// Whether notifications are on.
    public var isNotifying: Bool { properties["Notifying"]?.bool ?? false }
}

/// A remote GATT descriptor (`org.bluez.GattDescriptor1`).
public struct BlueZGATTDescriptor: Sendable, Hashable {
    /// The descriptor object.
    public var path: DBusObjectPath
    /// The properties as bluetoothd reports them.
    public var properties: [String: DBusValue]

    /// The characteristic it belongs to.
    public var characteristic: DBusObjectPath? { properties["Characteristic"]?.objectPath }
    /// The descriptor UUID, normalized.
    public var uuid: String { BluetoothUUID.normalized(properties["UUID"]?.string ?? "") }
}
