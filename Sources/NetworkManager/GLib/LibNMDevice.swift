internal import CLibNM

/// An `NMDevice` of any kind: its state, its current activation and the address it got.
///
/// Joining and leaving need only this; ``LibNMWiFiDevice`` adds scanning for the hotspot.
class LibNMDevice {
    let object: GObjectRef

    init(_ object: GObjectRef) {
        self.object = object
    }

    var interfaceName: String { String(cString: nm_device_get_iface(object.opaque)) }

    var state: NMDeviceState { NMDeviceState(code: nm_device_get_state(object.opaque)) }

    /// The reason for the latest state change (`NMDeviceStateReason`).
    var stateReason: UInt32 { nm_device_get_state_reason(object.opaque) }

    /// The D-Bus path, to subscribe to the device's own signals.
    var path: String { String(cString: nm_object_get_path(object.opaque)) }

    /// The device's current activation, if any.
    var activeConnection: LibNMActiveConnection? {
        GObjectRef(retaining: nm_device_get_active_connection(object.opaque)).map(LibNMActiveConnection.init)
    }

    /// Whether `activation` is the one the device is currently running.
    func isRunning(_ activation: LibNMActiveConnection) -> Bool {
        nm_device_get_active_connection(object.opaque) == activation.object.opaque
    }

    /// Signals after which the device's state, reason or activation may differ.
    var stateWatches: [GSignalWatch] {
        ["notify::state", "notify::state-reason", "notify::active-connection"].map {
            GSignalWatch(object: object, signal: $0)
        }
    }

    /// The first IPv4 address and the gateway NetworkManager configured, if any.
    var ipv4: (address: String, prefixLength: Int, gateway: String?)? {
        guard let config = nm_device_get_ip4_config(object.opaque),
            let address = gPointerArrayElements(nm_ip_config_get_addresses(config)).first
        else { return nil }
        let ipAddress = OpaquePointer(address)
        return (
            String(cString: nm_ip_address_get_address(ipAddress)),
            Int(nm_ip_address_get_prefix(ipAddress)),
            nm_ip_config_get_gateway(config).map { String(cString: $0) }
        )
    }
}
