import Testing

@testable import NetworkManager

@Suite struct NMActivationTrackerTests {
    typealias Snapshot = NMActivationTracker.Snapshot

    static func snapshot(
        _ connection: NMActiveConnectionState,
        _ connectionReason: UInt32 = 0,
        device: NMDeviceState,
        _ deviceReason: UInt32 = 0,
        on: Bool = true
    ) -> Snapshot {
        Snapshot(
            connectionState: connection, connectionReason: connectionReason, deviceState: device,
            deviceReason: deviceReason, deviceIsOnConnection: on)
    }

    /// Feeds the snapshots in order and returns every verdict.
    static func verdicts(_ snapshots: [Snapshot]) -> [NMActivationTracker.Verdict] {
        var tracker = NMActivationTracker()
        return snapshots.map { tracker.observe($0) }
    }

    @Test func succeedsWhenTheConnectionIsActivated() {
        let verdicts = Self.verdicts([
            Self.snapshot(.activating, device: .prepare),
            Self.snapshot(.activating, device: .config),
            Self.snapshot(.activating, device: .ipConfig),
            Self.snapshot(.activated, device: .activated),
        ])
        #expect(verdicts == [.pending, .pending, .pending, .activated])
    }

    @Test func waitsWhileThePreviousConnectionIsTornDownFirst() {
        let verdicts = Self.verdicts([
            Self.snapshot(.activating, device: .deactivating, 60, on: false),
            Self.snapshot(.activating, device: .disconnected, 60, on: false),
            Self.snapshot(.activating, device: .prepare),
        ])
        #expect(verdicts == [.pending, .pending, .pending])
    }

    @Test func failsAtOnceWithTheDevicesNoSecretsReason() {
        let verdicts = Self.verdicts([
            Self.snapshot(.activating, device: .needAuth),
            Self.snapshot(.activating, device: .failed, 7),
        ])
        #expect(verdicts == [.pending, .failed(NMStateReason(device: 7))])
    }

    @Test func remembersTheDeviceFailureAfterTheDeviceMovesOn() {
        var tracker = NMActivationTracker()
        _ = tracker.observe(Self.snapshot(.activating, device: .config))
        _ = tracker.observe(Self.snapshot(.activating, device: .failed, 1))
        let verdict = tracker.observe(Self.snapshot(.deactivated, 3, device: .disconnected, 0, on: false))
        #expect(verdict == .failed(NMStateReason(device: 1)))
    }

    @Test func ignoresAFailureLeftFromThePreviousActivation() {
        let verdicts = Self.verdicts([
            Self.snapshot(.activating, device: .failed, 7),
            Self.snapshot(.activating, device: .prepare),
            Self.snapshot(.activated, device: .activated),
        ])
        #expect(verdicts == [.pending, .pending, .activated])
    }

    @Test func usesTheConnectionReasonWhenTheDeviceGivesNone() {
        let verdicts = Self.verdicts([
            Self.snapshot(.activating, device: .config),
            Self.snapshot(.deactivated, 9, device: .disconnected, 0, on: false),
        ])
        #expect(verdicts == [.pending, .failed(NMStateReason(activeConnection: 9))])
    }

    @Test func failsWhenTheDeviceDropsTheActivation() {
        let verdicts = Self.verdicts([
            Self.snapshot(.activating, device: .config),
            Self.snapshot(.activating, device: .disconnected, 60, on: false),
        ])
        #expect(verdicts == [.pending, .failed(NMStateReason(device: 60))])
    }

    @Test func deactivationEndsWhenNetworkManagerSaysSoOrTheDeviceLetsGo() {
        #expect(!NMActivationTracker.isDeactivated(Self.snapshot(.deactivating, device: .deactivating)))
        #expect(NMActivationTracker.isDeactivated(Self.snapshot(.deactivated, device: .deactivating)))
        #expect(NMActivationTracker.isDeactivated(Self.snapshot(.deactivating, device: .disconnected, on: false)))
    }
}

extension NMActivationTrackerTests {
    @Test func keepsAFailureSeenOnlyInTheDevicesStateSignals() {
        var tracker = NMActivationTracker()
        tracker.deviceChangedState(to: .prepare, reason: 0)
        tracker.deviceChangedState(to: .needAuth, reason: 0)
        #expect(tracker.observe(Self.snapshot(.activating, device: .config)) == .pending)
        tracker.deviceChangedState(to: .failed, reason: 7)
        tracker.deviceChangedState(to: .disconnected, reason: 0)
        let verdict = tracker.observe(Self.snapshot(.deactivated, 3, device: .disconnected, 0, on: false))
        #expect(verdict == .failed(NMStateReason(device: 7)))
    }

    @Test func ignoresAFailureSignalBeforeTheDeviceWorkedOnTheActivation() {
        var tracker = NMActivationTracker()
        tracker.deviceChangedState(to: .failed, reason: 7)
        tracker.deviceChangedState(to: .disconnected, reason: 0)
        #expect(tracker.observe(Self.snapshot(.activating, device: .prepare)) == .pending)
    }
}
