internal import CLibNM

/// An `NMDeviceWifi`: its state, its access points and scans, and the address it got.
final class LibNMWiFiDevice {
    let object: GObjectRef

    init(_ object: GObjectRef) {
        self.object = object
    }

    var interfaceName: String { String(cString: nm_device_get_iface(object.opaque)) }

    var state: NMDeviceState { NMDeviceState(code: nm_device_get_state(object.opaque).rawValue) }

    /// The reason for the latest state change (`NMDeviceStateReason`).
    var stateReason: UInt32 { nm_device_get_state_reason(object.opaque).rawValue }

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

    /// When the last scan finished, in `CLOCK_BOOTTIME` milliseconds; -1 if never or not reported.
    var lastScan: Int64 { Int64(nm_device_wifi_get_last_scan(object.opaque)) }

    /// Now, on the clock of ``lastScan``.
    static var now: Int64 { Int64(nm_utils_get_timestamp_msec()) }

    var accessPoints: [LibNMAccessPoint] {
        gPointerArrayElements(nm_device_wifi_get_access_points(object.opaque)).map {
            LibNMAccessPoint(GObjectRef(retaining: $0))
        }
    }

    /// Signals after which the scan results may differ.
    var scanWatches: [GSignalWatch] {
        ["notify::last-scan", "notify::access-points"].map { GSignalWatch(object: object, signal: $0) }
    }

    /// Asks for a scan probing for `ssid` (which also finds hidden hotspots) and waits for the reply.
    ///
    /// NetworkManager refuses while a scan runs or right after one (`NOT_ALLOWED`); that is no error
    /// here, since a scan is then under way or fresh anyway.
    nonisolated(nonsending) func requestScan(ssid: [UInt8], cancellable: GCancellableHandle) async throws {
        let options = scanOptions(ssid: ssid)
        do {
            try await gAsyncCall { callback, data in
                nm_device_wifi_request_scan_options_async(
                    object.opaque, options.pointer, cancellable.pointer, callback, data)
            } finish: { [object] _, result in
                var error: UnsafeMutablePointer<GError>?
                guard nm_device_wifi_request_scan_finish(object.opaque, result, &error) != 0 else {
                    throw GLibError(taking: error)
                }
            }
        } catch let error as GLibError where error.isNotAllowed {
            return
        } catch let error as GLibError {
            throw error.reported(during: "a Wi-Fi scan")
        }
    }

    /// Asks for another scan without waiting; used when one finished without the hotspot.
    func requestScanInBackground(ssid: [UInt8]) {
        let options = scanOptions(ssid: ssid)
        withExtendedLifetime(options) {
            nm_device_wifi_request_scan_options_async(object.opaque, options.pointer, nil, nil, nil)
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

    private func scanOptions(ssid: [UInt8]) -> GVariantRef {
        GVariantRef(
            sinking: GVariantMaking.dictionary([
                "ssids": GVariantMaking.array(of: "ay", [GVariantMaking.byteArray(ssid)])
            ])
        )
    }
}
