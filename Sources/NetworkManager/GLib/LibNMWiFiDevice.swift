internal import CLibNM

/// An `NMDeviceWifi`: the device plus its access points and scans.
final class LibNMWiFiDevice: LibNMDevice {
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
            try await gAsyncCall("Device.Wireless.RequestScan") { callback, data in
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

    private func scanOptions(ssid: [UInt8]) -> GVariantRef {
        GVariantRef(
            sinking: GVariantMaking.dictionary([
                "ssids": GVariantMaking.array(of: "ay", [GVariantMaking.byteArray(ssid)])
            ])
        )
    }
}
