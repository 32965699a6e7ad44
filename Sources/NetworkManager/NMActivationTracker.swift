/// Follows one activation through NetworkManager's state changes and decides when it has succeeded
/// or failed, the way nmcli's `add_and_activate_check_state` does.
///
/// A device that fails reports its reason only while it sits in FAILED; NetworkManager then moves
/// it on to DISCONNECTED with no reason, and libnm may merge both into one property update. The
/// tracker therefore also takes the device's `StateChanged` signals and remembers a failure the
/// moment it sees one, so the verdict can still quote NO_SECRETS after the state has moved on.
/// A device still FAILED from the activation before (a restore right after a failed join) is not
/// this activation's failure: only a failure after the device has worked on it counts.
struct NMActivationTracker {
    /// What libnm reports for the activation and its device at one moment.
    struct Snapshot: Equatable {
        var connectionState: NMActiveConnectionState
        var connectionReason: UInt32
        var deviceState: NMDeviceState
        var deviceReason: UInt32
        /// Whether the device's active connection is the one being tracked.
        var deviceIsOnConnection: Bool
    }

    enum Verdict: Equatable {
        case pending
        case activated
        case failed(NMStateReason?)
    }

    private var deviceFailure: NMStateReason?
    private var sawDeviceOnConnection = false
    private var sawDeviceWorkOnConnection = false

    /// Takes one `StateChanged` signal of the device, which keeps reasons that libnm's merged
    /// property updates may skip.
    mutating func deviceChangedState(to state: NMDeviceState, reason: UInt32) {
        switch state {
        case .prepare, .config, .needAuth, .ipConfig, .ipCheck, .secondaries:
            sawDeviceWorkOnConnection = true
        case .failed where sawDeviceWorkOnConnection:
            deviceFailure = NMStateReason(device: reason)
        default:
            break
        }
    }

    /// The device failure seen so far; all there is to say about an activation that ended before
    /// libnm could load it.
    var recordedFailure: NMStateReason? { deviceFailure }

    mutating func observe(_ snapshot: Snapshot) -> Verdict {
        let deviceReason = NMStateReason(device: snapshot.deviceReason)
        if snapshot.deviceIsOnConnection {
            sawDeviceOnConnection = true
            switch snapshot.deviceState {
            case .prepare, .config, .needAuth, .ipConfig, .ipCheck, .secondaries, .activated:
                sawDeviceWorkOnConnection = true
            case .failed where sawDeviceWorkOnConnection:
                deviceFailure = deviceReason
            default:
                break
            }
        }
        switch snapshot.connectionState {
        case .activated:
            return .activated
        case .deactivating, .deactivated:
            return failure(snapshot, deviceReason: deviceReason)
        case .unknown, .activating:
            if let deviceFailure, deviceFailure.meaning != .other { return .failed(deviceFailure) }
            if sawDeviceOnConnection && !snapshot.deviceIsOnConnection {
                return failure(snapshot, deviceReason: deviceReason)
            }
            return .pending
        }
    }

    private func failure(_ snapshot: Snapshot, deviceReason: NMStateReason) -> Verdict {
        .failed(
            NMStateReason.mostTelling(
                device: deviceFailure ?? deviceReason,
                activeConnection: NMStateReason(activeConnection: snapshot.connectionReason)
            )
        )
    }

    /// Whether an activation being taken down has ended: NetworkManager says so, or the device has
    /// let go of it (a removed activation may never report its last state).
    static func isDeactivated(_ snapshot: Snapshot) -> Bool {
        snapshot.connectionState == .deactivated || !snapshot.deviceIsOnConnection
    }
}
