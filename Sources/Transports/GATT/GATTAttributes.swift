/// A stack's handle for one characteristic or descriptor of a connected peer (BlueZ: its object path).
///
/// Only the connection that discovered it can use it.
public struct GATTAttributeID: Sendable, Hashable, CustomStringConvertible {
    /// The stack's own name for the attribute.
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}

/// A descriptor of a characteristic.
public struct GATTDescriptor: Sendable, Hashable {
    /// The Characteristic User Description descriptor (0x2901): a UTF-8 name for the characteristic.
    public static let userDescriptionUUID = BluetoothUUID.expand(0x2901)

    /// The handle to read it with.
    public var id: GATTAttributeID
    /// The descriptor UUID, normalized.
    public var uuid: String

    public init(id: GATTAttributeID, uuid: String) {
        self.id = id
        self.uuid = BluetoothUUID.normalized(uuid)
    }
}

/// A characteristic with what it allows and its descriptors.
public struct GATTCharacteristic: Sendable, Hashable {
    /// The handle to read, write and subscribe with.
    public var id: GATTAttributeID
    /// The characteristic UUID, normalized.
    public var uuid: String
    /// What the characteristic allows.
    public var properties: GATTCharacteristicProperties
    /// Its descriptors, in handle order.
    public var descriptors: [GATTDescriptor]

    public init(
        id: GATTAttributeID, uuid: String, properties: GATTCharacteristicProperties, descriptors: [GATTDescriptor] = []
    ) {
        self.id = id
        self.uuid = BluetoothUUID.normalized(uuid)
        self.properties = properties
        self.descriptors = descriptors
    }

    /// The descriptor with `uuid`, if the characteristic has one.
    public func descriptor(_ uuid: String) -> GATTDescriptor? {
        let uuid = BluetoothUUID.normalized(uuid)
        return descriptors.first { $0.uuid == uuid }
    }
}

/// A primary service with its characteristics.
public struct GATTService: Sendable, Hashable {
    /// The service UUID, normalized.
    public var uuid: String
    /// Its characteristics, in handle order.
    public var characteristics: [GATTCharacteristic]

    public init(uuid: String, characteristics: [GATTCharacteristic]) {
        self.uuid = BluetoothUUID.normalized(uuid)
        self.characteristics = characteristics
    }

    /// The characteristic with `uuid`, if the service has one.
    public func characteristic(_ uuid: String) -> GATTCharacteristic? {
        let uuid = BluetoothUUID.normalized(uuid)
        return characteristics.first { $0.uuid == uuid }
    }
}
