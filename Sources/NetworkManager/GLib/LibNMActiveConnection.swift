internal import CLibNM

/// An `NMActiveConnection`: one activation of a profile on a device.
final class LibNMActiveConnection {
    let object: GObjectRef

    init(_ object: GObjectRef) {
        self.object = object
    }

    var state: NMActiveConnectionState {
        NMActiveConnectionState(code: nm_active_connection_get_state(object.opaque))
    }

    /// The reason for the latest state change (`NMActiveConnectionStateReason`).
    var stateReason: UInt32 { nm_active_connection_get_state_reason(object.opaque) }

    /// The profile's name, such as `HomeWiFi`.
    var id: String { nm_active_connection_get_id(object.opaque).map { String(cString: $0) } ?? "" }

    /// The stored profile this activation runs.
    var profile: LibNMRemoteConnection? {
        GObjectRef(retaining: nm_active_connection_get_connection(object.opaque)).map(LibNMRemoteConnection.init)
    }

    /// Signals after which the state or reason may differ.
    var stateWatches: [GSignalWatch] {
        [GSignalWatch(object: object, signal: "notify::state")]
    }

    /// The activation and its device as the tracker reads them.
    func snapshot(on device: LibNMDevice) -> NMActivationTracker.Snapshot {
        NMActivationTracker.Snapshot(
            connectionState: state,
            connectionReason: stateReason,
            deviceState: device.state,
            deviceReason: device.stateReason,
            deviceIsOnConnection: device.isRunning(self)
        )
    }
}
