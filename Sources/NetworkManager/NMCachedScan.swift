public import DBus

/// The access points NetworkManager last heard on the host's own Wi-Fi, read from its D-Bus objects as
/// they stand: no scan is asked for, so reading costs a few calls. Read over D-Bus rather than libnm so
/// that `ble`, which only looks, never maps libnm and its GLib stack.
public enum NMCachedScan {
    /// One access point as NetworkManager describes it.
    public struct AccessPoint: Sendable, Equatable {
        public var ssid: [UInt8]
        /// `24:0A:C4:1A:2B:3C`.
        public var bssid: String
        /// Centre frequency in MHz.
        public var frequency: Int
        /// Signal quality in percent.
        public var strength: Int
        /// `NM80211ApFlags`: bit 0 is privacy (some encryption).
        public var flags: UInt32
        /// `NM80211ApSecurityFlags` of the WPA and RSN (WPA2/WPA3) elements.
        public var wpaFlags: UInt32
        public var rsnFlags: UInt32
    }

    static let service = "org.freedesktop.NetworkManager"
    static let managerPath = DBusObjectPath("/org/freedesktop/NetworkManager") ?? .root
    static let properties = "org.freedesktop.DBus.Properties"
    /// `NM_DEVICE_TYPE_WIFI`.
    static let wifiDeviceType = 2

    /// Every access point every Wi-Fi device lists, none when NetworkManager is not running; each call gets
    /// `timeout`. Whether it runs is asked of the bus first, so a call never starts it by bus activation.
    public static func accessPoints(on bus: DBusConnection, timeout: Duration) async throws -> [AccessPoint] {
        let running = try await bus.call(
            DBusMethodCall(
                destination: "org.freedesktop.DBus", path: DBusObjectPath("/org/freedesktop/DBus") ?? .root,
                interface: "org.freedesktop.DBus", member: "NameHasOwner", arguments: [.string(service)]),
            timeout: timeout)
        guard running.first?.bool == true else { return [] }
        let devices = try await bus.call(
            DBusMethodCall(
                destination: service, path: managerPath, interface: service, member: "GetDevices"),
            timeout: timeout)
        var found: [AccessPoint] = []
        for device in devices.first?.elements?.compactMap(\.objectPath) ?? [] {
            let type = try await property("DeviceType", of: service + ".Device", at: device, on: bus, timeout: timeout)
            guard type.integer == wifiDeviceType else { continue }
            let listed = try await property(
                "AccessPoints", of: service + ".Device.Wireless", at: device, on: bus, timeout: timeout)
            for path in listed.elements?.compactMap(\.objectPath) ?? [] {
                let reply = try await bus.call(
                    DBusMethodCall(
                        destination: service, path: path, interface: properties, member: "GetAll",
                        arguments: [.string(service + ".AccessPoint")]),
                    timeout: timeout)
                guard let values = reply.first?.stringKeyed else { continue }
                found.append(
                    AccessPoint(
                        ssid: values["Ssid"]?.bytes ?? [], bssid: values["HwAddress"]?.string ?? "",
                        frequency: values["Frequency"]?.integer ?? 0, strength: values["Strength"]?.integer ?? 0,
                        flags: UInt32(truncatingIfNeeded: values["Flags"]?.integer ?? 0),
                        wpaFlags: UInt32(truncatingIfNeeded: values["WpaFlags"]?.integer ?? 0),
                        rsnFlags: UInt32(truncatingIfNeeded: values["RsnFlags"]?.integer ?? 0)))
            }
        }
        return found
    }

    private static func property(
        _ name: String, of interface: String, at path: DBusObjectPath, on bus: DBusConnection, timeout: Duration
    ) async throws -> DBusValue {
        let reply = try await bus.call(
            DBusMethodCall(
                destination: service, path: path, interface: properties, member: "Get",
                arguments: [.string(interface), .string(name)]),
            timeout: timeout)
        return reply.first?.unwrapped ?? .structure([])
    }
}
