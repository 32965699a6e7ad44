import DBus
import Transports

/// What to look for while scanning: service UUIDs, a name prefix, an address. Every given criterion must
/// hold, and results are matched here even though bluetoothd filters too, because it merges (ORs) all
/// clients' discovery filters (`doc/org.bluez.Adapter.rst`).
public struct BlueZScanFilter: Sendable, Hashable {
    /// Advertised service UUIDs, any of which must appear (empty: no UUID criterion).
    public var serviceUUIDs: [String]
    /// A prefix of the advertised name.
    public var namePrefix: String?
    /// The exact advertised name (a factory label), so `MH-1` does not also match `MH-10`.
    public var name: String?
    /// One device address.
    public var address: String?

    /// Describes a filter; UUIDs may be 16-bit or full.
    public init(serviceUUIDs: [String] = [], namePrefix: String? = nil, name: String? = nil, address: String? = nil) {
        self.serviceUUIDs = serviceUUIDs.map(BluetoothUUID.normalized)
        self.namePrefix = namePrefix
        self.name = name
        self.address = address?.uppercased()
    }

    /// Whether a reported device satisfies every criterion.
    public func matches(_ device: BlueZDevice) -> Bool {
        if !serviceUUIDs.isEmpty, Set(serviceUUIDs).isDisjoint(with: device.serviceUUIDs) { return false }
        if let namePrefix, !(device.name ?? "").hasPrefix(namePrefix) { return false }
        if let name, device.name != name { return false }
        if let address, device.address.uppercased() != address { return false }
        return true
    }

    /// The `SetDiscoveryFilter` argument: LE only, the UUIDs, and a `Pattern` (BlueZ ≥ 5.54) for the
    /// address or name (prefix); `Pattern` is a prefix match, so an exact name is confirmed in ``matches(_:)``.
    var discoveryFilter: DBusValue {
        var filter: [String: DBusValue] = ["Transport": .string("le")]
        if !serviceUUIDs.isEmpty { filter["UUIDs"] = .stringArray(serviceUUIDs) }
        if let pattern = address ?? name ?? namePrefix { filter["Pattern"] = .string(pattern) }
        return .properties(filter)
    }
}
