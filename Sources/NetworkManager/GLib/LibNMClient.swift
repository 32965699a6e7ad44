internal import CLibNM

/// An `NMClient` on a D-Bus connection of its own, created on the libnm thread.
///
/// A private connection, rather than GLib's shared system-bus singleton, lets each test point its
/// client at its own bus; and closing it at the end makes NetworkManager drop anything still bound
/// to this client (`bind-activation=dbus-client`), even when a step was missed.
final class LibNMClient {
    private let connection: GObjectRef
    let object: GObjectRef

    /// The D-Bus connection, for subscribing to NetworkManager's signals directly.
    var busConnection: GObjectRef { connection }

    private init(connection: GObjectRef, object: GObjectRef) {
        self.connection = connection
        self.object = object
    }

    deinit {
        g_dbus_connection_close(connection.opaque, nil, nil, nil)
    }

    /// Connects to the bus at `busAddress` (the system bus when `nil`) and loads NetworkManager's objects.
    nonisolated(nonsending) static func open(busAddress: String?, cancellable: GCancellableHandle) async throws
        -> LibNMClient
    {
        let connection = try await connect(to: busAddress ?? systemBusAddress(), cancellable: cancellable)
        let object = newClient(on: connection)
        try await gAsyncCall("NetworkManager client start-up (GetManagedObjects)") { callback, data in
            g_async_initable_init_async(object.opaque, CLibNM_PRIORITY_DEFAULT, cancellable.pointer, callback, data)
        } finish: { _, result in
            var error: UnsafeMutablePointer<GError>?
            guard g_async_initable_init_finish(object.opaque, result, &error) != 0 else {
                throw GLibError(taking: error).reported(during: "loading NetworkManager's objects")
            }
        }
        return LibNMClient(connection: connection, object: object)
    }

    var isNetworkManagerRunning: Bool { nm_client_get_nm_running(object.opaque) != 0 }

    var version: NMVersion? {
        nm_client_get_version(object.opaque).flatMap { NMVersion(String(cString: $0)) }
    }

    var isWirelessEnabled: Bool {
        nm_client_wireless_get_enabled(object.opaque) != 0
            && nm_client_wireless_hardware_get_enabled(object.opaque) != 0
    }

    /// The stored profile with this UUID, once libnm knows it.
    func profile(uuid: String) -> LibNMRemoteConnection? {
        GObjectRef(retaining: nm_client_get_connection_by_uuid(object.opaque, uuid)).map(LibNMRemoteConnection.init)
    }

    /// Signals after which the set of stored profiles may differ.
    var profileWatches: [GSignalWatch] { [GSignalWatch(object: object, signal: "notify::connections")] }

    /// The Wi-Fi device named `interfaceName`, or the first Wi-Fi device when `nil`.
    func wifiDevice(named interfaceName: String?) throws -> LibNMWiFiDevice {
        guard let device = try device(named: interfaceName, where: { CLibNM_is_device_wifi($0) != 0 }) else {
            throw interfaceName.map(NetworkManagerError.notWiFiDevice) ?? .wifiDeviceNotFound(interface: nil)
        }
        return LibNMWiFiDevice(device)
    }

    /// The Ethernet (or veth) device named `interfaceName`, or the first one when `nil`.
    func ethernetDevice(named interfaceName: String?) throws -> LibNMDevice {
        guard let device = try device(named: interfaceName, where: { CLibNM_is_device_ethernet($0) != 0 }) else {
            throw NetworkManagerError.ethernetTestLinkUnavailable(interface: interfaceName)
        }
        return LibNMDevice(device)
    }

    /// The device named `interfaceName` if it is of the wanted kind, or the first of that kind when `nil`.
    ///
    /// Throws when no device has that name at all; returns `nil` when it has but is of another kind.
    private func device(named interfaceName: String?, where isWantedKind: (UnsafeMutableRawPointer) -> Bool) throws
        -> GObjectRef?
    {
        let devices = gPointerArrayElements(nm_client_get_devices(object.opaque))
        guard let interfaceName else {
            return devices.first(where: isWantedKind).map { GObjectRef(retaining: $0) }
        }
        guard
            let device = devices.first(where: {
                String(cString: nm_device_get_iface(OpaquePointer($0))) == interfaceName
            })
        else {
            throw NetworkManagerError.wifiDeviceNotFound(interface: interfaceName)
        }
        return isWantedKind(device) ? GObjectRef(retaining: device) : nil
    }

    private nonisolated(nonsending) static func connect(to address: String, cancellable: GCancellableHandle)
        async throws -> GObjectRef
    {
        let flags =
            CLibNM_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
            | CLibNM_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue
        return try await gAsyncCall("D-Bus connect") { callback, data in
            g_dbus_connection_new_for_address(address, flags, nil, cancellable.pointer, callback, data)
        } finish: { _, result in
            var error: UnsafeMutablePointer<GError>?
            guard let connection = g_dbus_connection_new_for_address_finish(result, &error) else {
                let failure = GLibError(taking: error)
                if failure.isCancellation { throw CancellationError() }
                throw NetworkManagerError.busUnavailable(message: failure.message)
            }
            return GObjectRef(adopting: UnsafeMutableRawPointer(connection))
        }
    }

    private static func systemBusAddress() throws -> String {
        var error: UnsafeMutablePointer<GError>?
        guard let address = g_dbus_address_get_for_bus_sync(gint(CLibNM_BUS_TYPE_SYSTEM.rawValue), nil, &error) else {
            throw NetworkManagerError.busUnavailable(message: GLibError(taking: error).message)
        }
        defer { g_free(address) }
        return String(cString: address)
    }

    /// `g_object_new` is variadic; its array form sets the construct-only `dbus-connection` property.
    private static func newClient(on connection: GObjectRef) -> GObjectRef {
        var value = GValue()
        g_value_init(&value, g_dbus_connection_get_type())
        g_value_set_object(&value, connection.raw)
        defer { g_value_unset(&value) }
        let client = "dbus-connection".withCString { name in
            var names: [UnsafePointer<CChar>?] = [name]
            return g_object_new_with_properties(nm_client_get_type(), 1, &names, &value)!
        }
        return GObjectRef(adopting: UnsafeMutableRawPointer(client))
    }
}

/// The elements of a borrowed `GPtrArray`, as libnm's getters return them.
func gPointerArrayElements(_ array: UnsafePointer<GPtrArray>?) -> [UnsafeMutableRawPointer] {
    guard let array, let elements = array.pointee.pdata else { return [] }
    return (0..<Int(array.pointee.len)).compactMap { elements[$0] }
}
