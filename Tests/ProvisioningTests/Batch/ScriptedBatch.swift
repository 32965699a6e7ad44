import Foundation
import Provisioning
import Records
import Synchronization
import TestSupport

/// A batch whose attempts follow a script per unit (success, or an error per try), watching how many
/// attempts run at once per lane and in all.
final class ScriptedBatch: Sendable {
    struct Watch {
        var activePerLane: [String: Int] = [:]
        var peakPerLane: [String: Int] = [:]
        var active = 0
        var peak = 0
        var lanesUsed: Set<String> = []
        var attempts: [(key: String, lane: String)] = []
        var events: [BatchEvent] = []
    }

    let script: [String: [ProvisioningError?]]
    let work: Duration
    let watch = Mutex(Watch())
    let store: InMemoryRecordStore
    /// Called as each attempt starts, e.g. to cancel the batch at a given point.
    let onAttempt: @Sendable (BatchAttemptContext) -> Void

    init(
        script: [String: [ProvisioningError?]] = [:], work: Duration = .milliseconds(20),
        store: InMemoryRecordStore = InMemoryRecordStore(),
        onAttempt: @escaping @Sendable (BatchAttemptContext) -> Void = { _ in }
    ) {
        self.script = script
        self.work = work
        self.store = store
        self.onAttempt = onAttempt
    }

    static let wrongPassword = ProvisioningError(
        ErrorCode.bluFiWiFiWrongPassword, "The device could not join: wrong password.", hint: "Check it.")
    static let linkLost = ProvisioningError(ErrorCode.bleLinkLost, "The BLE link was lost.", hint: "Retry.")
    static let adapterOff = ProvisioningError(
        ErrorCode.bluetoothAdapterPoweredOff, "Bluetooth adapter hci9 is powered off.", hint: "Power it on.")

    func runner(
        lanes: [String], force: Bool = false, path: ProvisioningPath = .ble, station: String = "station-a",
        claimLifetime: Duration? = nil
    ) -> BatchRunner {
        let settings = BatchRunner.Settings(
            batchID: "batch-\(station)", station: station, path: path, lanes: lanes,
            retryPolicy: BatchRetryPolicy(maxAttempts: 3, backoff: .milliseconds(1)), force: force,
            claimLifetime: claimLifetime, claimRecheck: .milliseconds(10))
        return BatchRunner(
            settings: settings, store: store, events: { event in self.watch.withLock { $0.events.append(event) } },
            storeFailure: { ProvisioningError(.timeout, "store: \($0)", hint: "-") }, attempt: attempt)
    }

    private func attempt(_ context: BatchAttemptContext) async throws {
        onAttempt(context)
        let lane = context.lane
        watch.withLock { watch in
            watch.activePerLane[lane, default: 0] += 1
            watch.active += 1
            watch.peakPerLane[lane] = max(watch.peakPerLane[lane, default: 0], watch.activePerLane[lane]!)
            watch.peak = max(watch.peak, watch.active)
            watch.lanesUsed.insert(lane)
            watch.attempts.append((context.device.key, lane))
        }
        defer {
            watch.withLock { watch in
                watch.activePerLane[lane, default: 0] -= 1
                watch.active -= 1
            }
        }
        context.journal.began("connect")
        context.journal.found(address: context.device.address ?? "24:0A:C4:00:00:FF")
        try await Task.sleep(for: work)
        context.journal.began("join")
        context.progress("joined")
        let tries = script[context.device.key] ?? []
        if context.attempt <= tries.count, let failure = tries[context.attempt - 1] { throw failure }
        context.journal.learned(deviceID: "id-\(context.device.key)")
    }

    static func devices(_ count: Int, pop: String? = nil) -> [BatchDevice] {
        (1...count).map { index in
            BatchDevice(
                address: String(format: "24:0A:C4:00:00:%02X", index), proofOfPossession: pop.map(Secret.init),
                line: index)
        }
    }
}

extension Array where Element == BatchDevice {
    /// The units as a finished input stream.
    var stream: AsyncStream<BatchDevice> {
        AsyncStream { continuation in
            for device in self { continuation.yield(device) }
            continuation.finish()
        }
    }
}
