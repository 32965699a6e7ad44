/// The units waiting for a lane, fed while lanes work (a barcode scanner keeps typing).
///
/// Waiting lanes get units as ``BatchUnitPicker`` assigns them: units a lane's radio heard go to the lane
/// that heard them best, other lanes take the first unit nobody heard; a unit pinned to a lane goes only
/// there. Retries go to the front so a unit finishes before newer ones start; a unit another station holds
/// goes to the back and is not handed out again before its recheck time. `next` waits while the input is
/// still open, and returns nil once the input ended and nothing is left for the lane, or when the task is
/// cancelled. A busy lane may wait for its next unit *ahead* (while its current unit runs, so the claim on
/// the next one is off the current one's critical path): it is served only with units no idle lane takes.
actor BatchQueue {
    struct Entry {
        let device: BatchDevice
        let attempt: Int
        /// Another station held the unit when a lane last took it.
        var passedOver = false
        /// Not handed out before this time (a unit another station holds).
        var notBefore: ContinuousClock.Instant?
    }

    /// A lane waiting for a unit; `ahead` while its current unit still runs.
    private struct Waiter {
        let id: Int
        let lane: String
        let ahead: Bool
        let continuation: CheckedContinuation<Entry?, Never>
    }

    private var entries: [Entry] = []
    private var inputEnded = false
    private var waiters: [Waiter] = []
    private var nextWaiter = 0
    /// Units taken and not yet settled; the queue ends only when no retry can still come back.
    private var inFlight = 0
    private var sightings = BatchSightings()
    private let now: @Sendable () -> ContinuousClock.Instant
    /// Lanes whose discovery has not started yet; no unit is handed out before every lane listens, so the
    /// first units go by what all lanes heard.
    private var notListening: Set<String>
    private let listening: Listening
    /// When every lane listened (and the first picks may go).
    private var allListeningAt: ContinuousClock.Instant?
    /// Lanes that have not ended: the ones whose hearing can still decide a first pick.
    private var workingLanes: Set<String>

    /// How long lanes listen before the first pick (less once every lane heard every waiting unit), and
    /// before they take units nobody heard.
    struct Listening: Sendable {
        var settle: Duration
        var unheardAfter: Duration

        static let immediate = Listening(settle: .zero, unheardAfter: .zero)
        /// A radio hears an advertising ESP32 within a few hundred milliseconds; units it did not hear by
        /// `unheardAfter` are taken in queue order and searched for until the scan deadline.
        static let discovering = Listening(settle: .milliseconds(100), unheardAfter: .seconds(1))
    }

    /// `lanes` must each call ``listening(_:)`` (or end) before units go out, when `listening` is not immediate.
    init(
        lanes: [String] = [], listening: Listening = .immediate,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.now = now
        self.listening = listening
        notListening = listening.settle == .zero && listening.unheardAfter == .zero ? [] : Set(lanes)
        allListeningAt = notListening.isEmpty ? now() : nil
        workingLanes = Set(lanes)
    }

    /// The lane's discovery runs.
    func listening(_ lane: String) {
        lastLaneListened(lane)
        serveWaiters()
    }

    private func lastLaneListened(_ lane: String) {
        guard notListening.remove(lane) != nil, notListening.isEmpty else { return }
        allListeningAt = now()
    }

    func add(_ device: BatchDevice) {
        entries.append(Entry(device: device, attempt: 1))
        serveWaiters()
    }

    /// A unit to try again, ahead of the rest.
    func retry(_ device: BatchDevice, attempt: Int) {
        entries.insert(Entry(device: device, attempt: attempt), at: 0)
        inFlight -= 1
        serveWaiters()
    }

    /// A unit a stopped lane hands back untouched.
    func putBack(_ entry: Entry) {
        entries.insert(entry, at: 0)
        inFlight -= 1
        serveWaiters()
    }

    /// A unit another station holds, to look at again after `wait`.
    func later(_ entry: Entry, after wait: Duration) {
        var entry = entry
        entry.passedOver = true
        let due = now() + wait
        entry.notBefore = due
        entries.append(entry)
        inFlight -= 1
        Task { [weak self] in
            try? await Task.sleep(for: wait)
            await self?.refresh()
        }
    }

    /// The taken unit is settled (recorded as final, or skipped).
    func settled() {
        inFlight -= 1
        serveWaiters()
    }

    func endInput() {
        inputEnded = true
        serveWaiters()
    }

    /// A lane's radio heard a unit advertise.
    func heard(_ sighting: BatchSighting) {
        if sightings.note(sighting, at: now()), !waiters.isEmpty { serveWaiters() }
    }

    /// The lane stopped: what it heard no longer holds units back for it.
    func laneEnded(_ lane: String) {
        workingLanes.remove(lane)
        lastLaneListened(lane)
        sightings.forget(lane: lane)
        serveWaiters()
    }

    /// Looks again at what went stale since the last change.
    func refresh() {
        if !waiters.isEmpty { serveWaiters() }
    }

    /// How long until the listening window lets more picks go without new input (its settle or its
    /// unheard-after time ends), at most `limit`: the refresher wakes then, not at its next tick, so the
    /// first units do not wait up to a tick after the window ended.
    func untilListeningChanges(atMost limit: Duration) -> Duration {
        guard let allListeningAt else { return limit }
        let listened = now() - allListeningAt
        let ahead = [listening.settle, listening.unheardAfter].filter { $0 > listened }.min()
        return ahead.map { min($0 - listened, limit) } ?? limit
    }

    /// The lanes waiting for a unit, in the order they asked, and whether each waits ahead (for tests).
    var waiting: [(lane: String, ahead: Bool)] { waiters.map { ($0.lane, $0.ahead) } }

    /// Units never taken, e.g. after Ctrl-C or when every lane stopped.
    func untouched() -> [BatchDevice] { entries.map(\.device) }

    /// The lane's next unit; with `ahead`, while its current unit still runs, so only one no idle lane takes.
    func next(for lane: String, ahead: Bool = false) async -> Entry? {
        guard !Task.isCancelled else { return nil }
        let id = nextWaiter
        nextWaiter += 1
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters.append(Waiter(id: id, lane: lane, ahead: ahead, continuation: continuation))
                serveWaiters()
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    private var isDrained: Bool { inputEnded && inFlight == 0 }

    /// A unit another station held waits for a lane that may still take it.
    private var awaitsRecheck: Bool {
        entries.contains { entry in entry.notBefore != nil && (entry.device.lane.map(workingLanes.contains) ?? true) }
    }

    /// Every working lane heard every waiting unit it may take: listening longer cannot change the first
    /// picks, so they need not wait out the settle time.
    private func heardByAll(_ time: ContinuousClock.Instant) -> Bool {
        sightings.everyLaneHeard(entries.map(\.device), lanes: workingLanes, now: time)
    }

    private func serveWaiters() {
        let time = now()
        let listened = allListeningAt.map { time - $0 } ?? .zero
        let settled = allListeningAt != nil && (listened >= listening.settle || heardByAll(time))
        let takingUnheard = allListeningAt != nil && listened >= listening.unheardAfter
        if settled {
            // Idle lanes first; busy lanes waiting ahead only get what the idle ones left.
            assign(to: waiters.filter { !$0.ahead }, at: time, takingUnheard: takingUnheard)
            assign(to: waiters.filter(\.ahead), at: time, takingUnheard: takingUnheard)
        }
        // Done when no unit can come back and the lanes may take any unit they could: what is left is pinned
        // to lanes that are gone.
        guard isDrained, takingUnheard || entries.isEmpty, !awaitsRecheck else { return }
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.continuation.resume(returning: nil) }
    }

    /// Hands due units to `candidates` as the picker assigns them.
    private func assign(to candidates: [Waiter], at time: ContinuousClock.Instant, takingUnheard: Bool) {
        let due = entries.indices.filter { entries[$0].notBefore.map { $0 <= time } ?? true }
        guard !candidates.isEmpty, !due.isEmpty else { return }
        let assignments = BatchUnitPicker.assign(
            due.map { entries[$0].device }, to: candidates.map(\.lane), sightings: sightings, now: time,
            takingUnheard: takingUnheard)
        var served: [Int: Entry] = [:]
        for assignment in assignments {
            served[candidates[assignment.waiter].id] = entries[due[assignment.entry]]
        }
        let takenEntries = Set(assignments.map { due[$0.entry] })
        entries = entries.enumerated().filter { !takenEntries.contains($0.offset) }.map(\.element)
        inFlight += served.count
        let waiting = waiters
        waiters = waiting.filter { served[$0.id] == nil }
        for waiter in waiting {
            if let entry = served[waiter.id] { waiter.continuation.resume(returning: entry) }
        }
    }

    private func cancelWaiter(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(returning: nil)
    }
}
