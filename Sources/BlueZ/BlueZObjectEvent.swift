public import DBus

/// One change to bluetoothd's object tree, decoded from a signal or from a `GetManagedObjects` reply.
///
/// Property values are stored without their variant wrapper.
public enum BlueZObjectEvent: Sendable, Hashable {
    /// Interfaces of one object, each with its properties.
    public typealias Interfaces = [String: [String: DBusValue]]

    /// The whole tree as `GetManagedObjects` returned it.
    case snapshot([DBusObjectPath: Interfaces])
    /// `InterfacesAdded`: an object gained interfaces (a new device, a resolved GATT object).
    case interfacesAdded(DBusObjectPath, Interfaces)
    /// `InterfacesRemoved`: an object lost interfaces; with none left it is gone.
    case interfacesRemoved(DBusObjectPath, [String])
    /// `PropertiesChanged` on one interface of one object.
    case propertiesChanged(DBusObjectPath, interface: String, changed: [String: DBusValue], invalidated: [String])

    /// The object the event is about; nil for a snapshot.
    public var path: DBusObjectPath? {
        switch self {
        case .snapshot: nil
        case .interfacesAdded(let path, _), .interfacesRemoved(let path, _): path
        case .propertiesChanged(let path, _, _, _): path
        }
    }

    /// Decodes an ObjectManager or Properties signal; nil for any other signal or a malformed one.
    public init?(signal: DBusSignal) {
        let arguments = signal.arguments
        switch (signal.interface, signal.member) {
        case (BlueZNames.objectManager, "InterfacesAdded"):
            guard arguments.count == 2, let path = arguments[0].objectPath,
                let interfaces = BlueZObjectEvent.interfaces(arguments[1])
            else { return nil }
            self = .interfacesAdded(path, interfaces)
        case (BlueZNames.objectManager, "InterfacesRemoved"):
            guard arguments.count == 2, let path = arguments[0].objectPath, let names = arguments[1].strings else {
                return nil
            }
            self = .interfacesRemoved(path, names)
        case (BlueZNames.properties, "PropertiesChanged"):
            guard arguments.count == 3, let interface = arguments[0].string,
                let changed = BlueZObjectEvent.properties(arguments[1]), let invalidated = arguments[2].strings
            else { return nil }
            self = .propertiesChanged(signal.path, interface: interface, changed: changed, invalidated: invalidated)
        default:
            return nil
        }
    }

    /// Decodes the `a{oa{sa{sv}}}` reply of `GetManagedObjects`.
    public init(managedObjects arguments: [DBusValue]) throws(DBusError) {
        guard arguments.count == 1, let entries = arguments[0].entries else {
            throw .unexpectedReply("GetManagedObjects did not return a{oa{sa{sv}}}")
        }
        var objects: [DBusObjectPath: Interfaces] = [:]
        for entry in entries {
            guard let path = entry.key.objectPath, let interfaces = BlueZObjectEvent.interfaces(entry.value) else {
                throw .unexpectedReply("GetManagedObjects entry is not (o, a{sa{sv}})")
            }
            objects[path] = interfaces
        }
        self = .snapshot(objects)
    }

    private static func interfaces(_ value: DBusValue) -> Interfaces? {
        guard let byName = value.stringKeyed else { return nil }
        var interfaces: Interfaces = [:]
        for (name, properties) in byName {
            guard let decoded = self.properties(properties) else { return nil }
            interfaces[name] = decoded
        }
        return interfaces
    }

    private static func properties(_ value: DBusValue) -> [String: DBusValue]? {
        value.stringKeyed?.mapValues(\.unwrapped)
    }
}
