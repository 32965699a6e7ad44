public import DBus
public import Transports

/// A mirror of bluetoothd's object tree, kept current by applying `BlueZObjectEvent`s.
///
/// A pure value: the client applies decoded signals on its loop, and tests apply recorded payloads.
/// BlueZ links children to parents only (`Device`, `Service` properties), so the queries walk those links.
public struct BlueZObjectTree: Sendable, Hashable {
    /// Every object with its interfaces and their properties.
    public private(set) var objects: [DBusObjectPath: BlueZObjectEvent.Interfaces] = [:]

    /// An empty tree, before the first snapshot.
    public init() {}

    /// Applies one change.
    ///
    /// A snapshot replaces everything. Property changes for an object or interface the tree does not hold are
    /// ignored: the object's `InterfacesAdded` carries the full set when it appears.
    public mutating func apply(_ event: BlueZObjectEvent) {
        switch event {
        case .snapshot(let all):
            objects = all
        case .interfacesAdded(let path, let interfaces):
            objects[path, default: [:]].merge(interfaces) { _, new in new }
        case .interfacesRemoved(let path, let names):
            for name in names {
                objects[path]?[name] = nil
            }
            if objects[path]?.isEmpty == true { objects[path] = nil }
        case .propertiesChanged(let path, let interface, let changed, let invalidated):
            guard objects[path]?[interface] != nil else { return }
            objects[path]![interface]!.merge(changed) { _, new in new }
            for name in invalidated {
                objects[path]![interface]![name] = nil
            }
        }
    }

    /// The properties of one interface of one object.
    public func properties(of path: DBusObjectPath, _ interface: String) -> [String: DBusValue]? {
        objects[path]?[interface]
    }

    /// All adapters, by path.
    public var adapters: [BlueZAdapter] {
        paths(with: BlueZNames.adapter).compactMap(adapter(at:))
    }

    /// The adapter at `path`.
    public func adapter(at path: DBusObjectPath) -> BlueZAdapter? {
        properties(of: path, BlueZNames.adapter).map { BlueZAdapter(path: path, properties: $0) }
    }

    /// The devices BlueZ knows on one adapter, by path.
    public func devices(on adapter: DBusObjectPath) -> [BlueZDevice] {
        children(BlueZNames.device, of: adapter, linkedBy: "Adapter", BlueZDevice.init)
    }

    /// The device at `path`.
    public func device(at path: DBusObjectPath) -> BlueZDevice? {
        properties(of: path, BlueZNames.device).map { BlueZDevice(path: path, properties: $0) }
    }

    /// The resolved GATT services of a device.
    public func services(of device: DBusObjectPath) -> [BlueZGATTService] {
        children(BlueZNames.gattService, of: device, linkedBy: "Device", BlueZGATTService.init)
    }

    /// The characteristics of a service.
    public func characteristics(of service: DBusObjectPath) -> [BlueZGATTCharacteristic] {
        children(BlueZNames.gattCharacteristic, of: service, linkedBy: "Service", BlueZGATTCharacteristic.init)
    }

    /// The descriptors of a characteristic.
    public func descriptors(of characteristic: DBusObjectPath) -> [BlueZGATTDescriptor] {
        children(
            BlueZNames.gattDescriptor, of: characteristic, linkedBy: "Characteristic", BlueZGATTDescriptor.init)
    }

    /// A device's resolved GATT database in the stack-neutral form, object paths as attribute handles.
    public func gattServices(of device: DBusObjectPath) -> [GATTService] {
        services(of: device).map { service in
            GATTService(
                uuid: service.uuid,
                characteristics: characteristics(of: service.path).map { characteristic in
                    GATTCharacteristic(
                        id: GATTAttributeID(characteristic.path.rawValue), uuid: characteristic.uuid,
                        properties: characteristic.gattProperties,
                        descriptors: descriptors(of: characteristic.path).map {
                            GATTDescriptor(id: GATTAttributeID($0.path.rawValue), uuid: $0.uuid)
                        })
                })
        }
    }

    /// The ATT MTU bluetoothd exports on the device's characteristics (BlueZ ≥ 5.62), if any.
    public func mtu(of device: DBusObjectPath) -> Int? {
        services(of: device).lazy.flatMap { characteristics(of: $0.path) }.compactMap(\.mtu).first
    }

    /// The objects with `interface`, by path, whose `link` property names `parent`.
    ///
    /// Only the matches are built and sorted: a batch's mirror holds every device an adapter heard, with the
    /// GATT objects bluetoothd keeps for each, and a connect looks through them several times.
    private func children<Object>(
        _ interface: String, of parent: DBusObjectPath, linkedBy link: String,
        _ make: (_ path: DBusObjectPath, _ properties: [String: DBusValue]) -> Object
    ) -> [Object] {
        objects.compactMap { path, interfaces -> (DBusObjectPath, [String: DBusValue])? in
            guard let properties = interfaces[interface], properties[link]?.objectPath == parent else { return nil }
            return (path, properties)
        }
        .sorted { $0.0 < $1.0 }
        .map { make($0.0, $0.1) }
    }

    private func paths(with interface: String) -> [DBusObjectPath] {
        objects.keys.filter { objects[$0]?[interface] != nil }.sorted()
    }
}
