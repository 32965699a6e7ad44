internal import CLibNM

/// Every `StateChanged` signal of one device from the moment this log exists, each with its reason.
///
/// libnm folds quick successive property changes into one update, so a device that goes FAILED
/// (NO_SECRETS) and straight on to DISCONNECTED may only ever show DISCONNECTED through libnm's
/// properties. NetworkManager's own signal keeps each step. The log subscribes on the client's
/// connection before the activation is requested, so no step can arrive before the subscription.
final class LibNMDeviceStateLog {
    private(set) var changes: [(state: NMDeviceState, reason: UInt32)] = []
    private let connection: GObjectRef
    private var subscription: guint = 0

    init(device: LibNMDevice, client: LibNMClient) {
        connection = client.busConnection
        let recorder = Unmanaged.passRetained(StateChangeRecorder(log: self)).toOpaque()
        subscription = g_dbus_connection_signal_subscribe(
            connection.opaque, "org.freedesktop.NetworkManager", "org.freedesktop.NetworkManager.Device",
            "StateChanged", device.path, nil, CLibNM_DBUS_SIGNAL_FLAGS_NONE.rawValue, stateChanged, recorder,
            releaseRecorder)
    }

    deinit {
        g_dbus_connection_signal_unsubscribe(connection.opaque, subscription)
    }

    /// Appends one signal's `(new state, old state, reason)` parameters.
    fileprivate func record(_ parameters: OpaquePointer) {
        guard let state = uint32Element(parameters, 0), let reason = uint32Element(parameters, 2) else { return }
        changes.append((NMDeviceState(code: state), reason))
    }
}

/// The subscription's data; GDBus may release it after the log is gone, so it holds the log weakly.
private final class StateChangeRecorder {
    weak var log: LibNMDeviceStateLog?

    init(log: LibNMDeviceStateLog) {
        self.log = log
    }
}

private let stateChanged: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
    guard let parameters else { return }
    Unmanaged<StateChangeRecorder>.fromOpaque(data!).takeUnretainedValue().log?.record(parameters)
}

private let releaseRecorder: GDestroyNotify = { data in
    Unmanaged<StateChangeRecorder>.fromOpaque(data!).release()
}

/// The `index`th element of a tuple variant when it is a `u`, else nil.
private func uint32Element(_ tuple: OpaquePointer, _ index: Int) -> UInt32? {
    guard g_variant_is_container(tuple) != 0, index < Int(g_variant_n_children(tuple)) else { return nil }
    let element = g_variant_get_child_value(tuple, gsize(index))!
    defer { g_variant_unref(element) }
    let isUInt32 = "u".withCString { g_variant_is_of_type(element, CLibNM_variant_type($0)) != 0 }
    return isUInt32 ? g_variant_get_uint32(element) : nil
}
