internal import CLibNM

/// An `NMAccessPoint` seen in a scan.
final class LibNMAccessPoint {
    let object: GObjectRef

    init(_ object: GObjectRef) {
        self.object = object
    }

    /// The D-Bus path, handed to NetworkManager as the activation's specific object.
    var path: String { String(cString: nm_object_get_path(object.opaque)) }

    /// What the joiner chooses by, copied out of libnm.
    var summary: NMAccessPointSummary {
        NMAccessPointSummary(
            ssid: ssid, bssid: bssid, strength: nm_access_point_get_strength(object.opaque),
            lastSeen: Int32(nm_access_point_get_last_seen(object.opaque)))
    }

    /// Signals after which ``summary`` may differ.
    var lastSeenWatches: [GSignalWatch] {
        [GSignalWatch(object: object, signal: "notify::last-seen")]
    }

    private var ssid: [UInt8] {
        guard let bytes = nm_access_point_get_ssid(object.opaque) else { return [] }
        var size: gsize = 0
        guard let data = g_bytes_get_data(bytes, &size) else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(size)))
    }

    private var bssid: String {
        nm_access_point_get_bssid(object.opaque).map { String(cString: $0) } ?? ""
    }
}
