public import FoundationEssentials
public import Records

/// Provisions a stream of units across lanes in parallel, one unit per lane at a time, and records
/// every attempt.
///
/// Each lane (a Bluetooth adapter or Wi-Fi interface) takes the next unit it may use, claims it in the
/// records (skipping it if they say it is done, unless forced, and passing it over for later while another
/// station holds it), tries it, and records the attempt before trying another, so a crash or power cut
/// loses at most the attempts in flight. While a unit runs, its lane already takes and claims the next one
/// (a unit no idle lane takes), so the claim adds no wait between units. Failures the retry policy accepts send
/// the unit back to the front of the queue for any lane; a lane that turns out unusable hands its unit
/// back untouched and stops. Ctrl-C records the attempts in flight as interrupted and leaves the rest
/// untouched.
public struct BatchRunner: Sendable {
    /// Who is running the batch and how.
    public struct Settings: Sendable {
        public var batchID: String
        public var station: String
        public var path: ProvisioningPath
        public var lanes: [String]
        public var retryPolicy: BatchRetryPolicy
        /// Try units the records already show as provisioned.
        public var force: Bool
        /// How long one attempt may take.
        public var attemptTimeout: Duration
        /// How long a claim on a unit lasts unless renewed (a running attempt renews it at a third of this):
        /// how long a station that died keeps its units from the others.
        public var claimLifetime: Duration
        /// How long a unit another station holds waits before this batch looks at it again.
        public var claimRecheck: Duration
        /// Who holds this batch's claims: unique to the run (the batch ID unless the wiring says more).
        public var claimHolder: String
        /// True for a holder known to be gone (a dead process of this host): its claims are taken at once
        /// rather than waited out, so a batch restarted after a crash goes on with the units it held.
        public var isClaimHolderGone: @Sendable (String) -> Bool

        public init(
            batchID: String, station: String, path: ProvisioningPath, lanes: [String],
            retryPolicy: BatchRetryPolicy = BatchRetryPolicy(), force: Bool = false,
            attemptTimeout: Duration = .seconds(120), claimLifetime: Duration? = nil,
            claimRecheck: Duration = .seconds(1), claimHolder: String? = nil,
            isClaimHolderGone: @escaping @Sendable (String) -> Bool = { _ in false }
        ) {
            self.batchID = batchID
            self.station = station
            self.path = path
            self.lanes = lanes
            self.retryPolicy = retryPolicy
            self.force = force
            self.attemptTimeout = attemptTimeout
            self.claimLifetime = claimLifetime ?? attemptTimeout * 2
            self.claimRecheck = claimRecheck
            self.claimHolder = claimHolder ?? batchID
            self.isClaimHolderGone = isClaimHolderGone
        }
    }

    let settings: Settings
    let store: any ProvisioningRecordStore
    let attempt: BatchAttempt
    /// Keeps each lane's discovery running while it works, when the path has one (BLE).
    let laneScope: BatchLaneScope?
    let events: BatchEventSink
    /// Turns a store failure into the error the batch stops with.
    let storeFailure: @Sendable (any Error) -> ProvisioningError
    let wallClock: @Sendable () -> Date
    let monotonicClock: @Sendable () -> ContinuousClock.Instant

    public init(
        settings: Settings, store: any ProvisioningRecordStore, events: @escaping BatchEventSink,
        storeFailure: @escaping @Sendable (any Error) -> ProvisioningError,
        wallClock: @escaping @Sendable () -> Date = { Date() },
        monotonicClock: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        laneScope: BatchLaneScope? = nil, attempt: @escaping BatchAttempt
    ) {
        self.settings = settings
        self.laneScope = laneScope
        self.store = store
        self.attempt = attempt
        self.events = events
        self.storeFailure = storeFailure
        self.wallClock = wallClock
        self.monotonicClock = monotonicClock
    }

    /// Runs until `devices` ends and every unit is settled, or until cancelled; returns the tally.
    ///
    /// Throws when the records cannot be written (the batch must not run unrecorded) and when every lane
    /// stopped (the last lane's error). Cancellation is not an error here: the summary says `interrupted`.
    public func run(_ devices: some AsyncSequence<BatchDevice, Never> & Sendable) async throws(ProvisioningError)
        -> BatchSummary
    {
        let queue = BatchQueue(
            lanes: settings.lanes, listening: laneScope == nil ? .immediate : .discovering, now: monotonicClock)
        let tally = BatchTally()
        let outcome = await withTaskGroup(of: LaneEnd.self) { group in
            group.addTask { await feed(devices, into: queue, tally: tally) }
            if laneScope != nil {
                group.addTask {
                    // Sightings go stale and the listening window ends without an event saying so: look
                    // again now and then, and as the window ends.
                    while (try? await Task.sleep(for: await queue.untilListeningChanges(atMost: .milliseconds(100))))
                        != nil
                    {
                        await queue.refresh()
                    }
                    return .refresherEnded
                }
            }
            for lane in settings.lanes {
                group.addTask { await self.runLane(lane, queue: queue, tally: tally) }
            }
            var ends: [LaneEnd] = []
            var lanesLeft = settings.lanes.count
            for await end in group {
                ends.append(end)
                // Nothing can take more units: stop reading them (a scanner's stdin never ends by itself).
                if case .storeFailed = end {
                    group.cancelAll()
                    continue
                }
                if case .inputEnded = end { continue }
                if case .refresherEnded = end { continue }
                lanesLeft -= 1
                if lanesLeft == 0 { group.cancelAll() }
            }
            return ends
        }
        let interrupted = Task.isCancelled
        for end in outcome {
            if case .storeFailed(let error) = end { throw error }
        }
        let stopped = outcome.compactMap { end -> (lane: String, error: ProvisioningError)? in
            if case .stopped(let lane, let error) = end { return (lane, error) }
            return nil
        }
        if !interrupted, stopped.count == settings.lanes.count, let last = stopped.last { throw last.error }
        var left = await queue.untouched()
        if !interrupted {
            // Units pinned to a lane that stopped: no other lane may take them, so they failed.
            for device in left {
                let lane = device.lane ?? ""
                let cause =
                    stopped.last { $0.lane == lane }?.error
                    ?? .batchUnknownLane(
                        device, lane: lane, lanes: settings.lanes)
                do {
                    try await recordNeverAttempted(
                        device, lane: lane, .batchLaneStopped(device, lane: lane, cause), tally: tally)
                } catch {
                    throw storeFailure(error)
                }
            }
            left = []
        }
        var summary = await tally.summary
        summary.untouched += left.count
        summary.interrupted = interrupted
        return summary
    }

    /// Queues the units as they come; one pinned to a lane the batch does not have is recorded as failed
    /// at once, since no lane may take it.
    private func feed(
        _ devices: some AsyncSequence<BatchDevice, Never>, into queue: BatchQueue, tally: BatchTally
    ) async -> LaneEnd {
        var seen: Set<String> = []
        for await device in devices {
            guard seen.insert(device.key).inserted else {
                events(.skipped(device, .duplicate))
                await tally.skipped()
                continue
            }
            events(.queued(device))
            if let lane = device.lane, !settings.lanes.contains(lane) {
                do {
                    try await recordNeverAttempted(
                        device, lane: lane, .batchUnknownLane(device, lane: lane, lanes: settings.lanes), tally: tally)
                } catch {
                    await queue.endInput()
                    return .storeFailed(storeFailure(error))
                }
                continue
            }
            await queue.add(device)
        }
        await queue.endInput()
        return .inputEnded
    }
}

/// How one lane task ended.
enum LaneEnd: Sendable {
    case inputEnded
    case refresherEnded
    case drained
    case stopped(lane: String, ProvisioningError)
    case storeFailed(ProvisioningError)
}
