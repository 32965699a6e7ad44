@testable import BlueZ
@testable import DBus

/// Signal and reply payloads in the shapes bluetoothd 5.66 sends (transcribed from `busctl monitor org.bluez`
/// output of a BluFi device connect), passed through libdbus wire bytes before decoding.
enum BlueZPayloads {
    static let adapter = DBusObjectPath("/org/bluez/hci0")!
    static let device = DBusObjectPath("/org/bluez/hci0/dev_24_0A_C4_12_34_56")!
    static let service = DBusObjectPath("/org/bluez/hci0/dev_24_0A_C4_12_34_56/service0028")!
    static let write = DBusObjectPath("/org/bluez/hci0/dev_24_0A_C4_12_34_56/service0028/char0029")!
    static let notify = DBusObjectPath("/org/bluez/hci0/dev_24_0A_C4_12_34_56/service0028/char002b")!

    static func interfaces(_ byName: [String: [String: DBusValue]]) -> DBusValue {
        .dictionary(
            key: .string, value: .dictionary(key: .string, value: .variant),
            byName.keys.sorted().map { DBusDictionaryEntry(key: .string($0), value: .properties(byName[$0]!)) })
    }

    static let adapterProperties: [String: DBusValue] = [
        "Address": .string("00:AA:BB:CC:DD:00"), "Powered": .boolean(true), "PowerState": .string("on"),
        "Discovering": .boolean(false),
    ]

    static let deviceProperties: [String: DBusValue] = [
        "Address": .string("24:0A:C4:12:34:56"), "AddressType": .string("public"), "Name": .string("BLUFI_DEVICE"),
        "Alias": .string("BLUFI_DEVICE"), "Adapter": .objectPath(adapter), "RSSI": .int16(-52),
        "UUIDs": .stringArray(["0000ffff-0000-1000-8000-00805f9b34fb"]),
        "ManufacturerData": .dictionary(
            key: .uint16, value: .variant, [DBusDictionaryEntry(key: .uint16(0x02E5), value: .variant(.bytes([1, 2])))]),
        "Connected": .boolean(false), "ServicesResolved": .boolean(false), "Paired": .boolean(false),
    ]

    static let managedObjects = DBusValue.dictionary(
        key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)),
        [
            DBusDictionaryEntry(
                key: .objectPath(adapter),
                value: interfaces(["org.bluez.Adapter1": adapterProperties, "org.freedesktop.DBus.Properties": [:]]))
        ])

    static func signal(_ path: DBusObjectPath, _ interface: String, _ member: String, _ arguments: [DBusValue])
        throws -> DBusSignal
    {
        let call = DBusMethodCall(
            destination: "org.bluez", path: path, interface: interface, member: member, arguments: arguments)
        let decoded = try DBusWireFormat.arguments(ofMarshalled: DBusWireFormat.marshal(call))
        return DBusSignal(sender: ":1.3", path: path, interface: interface, member: member, arguments: decoded)
    }

    static func added(_ path: DBusObjectPath, _ byName: [String: [String: DBusValue]]) throws -> BlueZObjectEvent {
        try event(signal(.root, BlueZNames.objectManager, "InterfacesAdded", [.objectPath(path), interfaces(byName)]))
    }

    static func removed(_ path: DBusObjectPath, _ names: [String]) throws -> BlueZObjectEvent {
        try event(
            signal(.root, BlueZNames.objectManager, "InterfacesRemoved", [.objectPath(path), .stringArray(names)]))
    }

    static func changed(
        _ path: DBusObjectPath, _ interface: String, _ values: [String: DBusValue], invalidated: [String] = []
    )
        throws -> BlueZObjectEvent
    {
        try event(
            signal(
                path, BlueZNames.properties, "PropertiesChanged",
                [.string(interface), .properties(values), .stringArray(invalidated)]))
    }

    static func snapshot() throws -> BlueZObjectEvent {
        let call = DBusMethodCall(
            destination: "org.bluez", path: .root, interface: "x.y", member: "Reply", arguments: [managedObjects])
        return try BlueZObjectEvent(
            managedObjects: DBusWireFormat.arguments(ofMarshalled: DBusWireFormat.marshal(call)))
    }

    static func resolvedProfile() throws -> [BlueZObjectEvent] {
        [
            try added(
                service,
                [
                    "org.bluez.GattService1": [
                        "UUID": .string("0000ffff-0000-1000-8000-00805f9b34fb"), "Device": .objectPath(device),
                        "Primary": .boolean(true),
                    ]
                ]),
            try added(
                write,
                [
                    "org.bluez.GattCharacteristic1": [
                        "UUID": .string("0000ff01-0000-1000-8000-00805f9b34fb"), "Service": .objectPath(service),
                        "Flags": .stringArray(["write"]), "MTU": .uint16(247),
                    ]
                ]),
            try added(
                notify,
                [
                    "org.bluez.GattCharacteristic1": [
                        "UUID": .string("0000ff02-0000-1000-8000-00805f9b34fb"), "Service": .objectPath(service),
                        "Flags": .stringArray(["read", "notify"]), "MTU": .uint16(247),
                    ]
                ]),
            try changed(device, BlueZNames.device, ["ServicesResolved": .boolean(true)]),
        ]
    }

    private static func event(_ signal: DBusSignal) throws -> BlueZObjectEvent {
        guard let event = BlueZObjectEvent(signal: signal) else {
            throw DBusError.unexpectedReply("undecodable \(signal.member)")
        }
        return event
    }
}
