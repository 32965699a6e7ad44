/// The units waiting for a lane, fed while lanes work (a barcode scanner keeps typing).
///
/// A lane asks for the next unit it may take: the first one not pinned to another lane. Retries go to
/// the front so a unit finishes before newer ones start. `next` waits while the input is still open,
/// and returns nil once the input ended and nothing is left for the lane, or when the task is cancelled.
actor BatchQueue {
    struct Entry {
        let device: BatchDevice
        let attempt: Int
    }

    private var entries: [Entry] = []
    private var inputEnded = false
    private var waiters: [(id: Int, lane: String, continuation: CheckedContinuation<Entry?, Never>)] = []
    private var nextWaiter = 0
    /// Units taken and not yet settled; the queue ends only when no retry can still come back.
    private var inFlight = 0

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

    /// The taken unit is settled (recorded as final, or skipped).
    func settled() {
        inFlight -= 1
        serveWaiters()
    }

    func endInput() {
        inputEnded = true
        serveWaiters()
    }

    /// Units never taken, e.g. after Ctrl-C or when every lane stopped.
    func untouched() -> [BatchDevice] { entries.map(\.device) }

    func next(for lane: String) async -> Entry? {
        guard !Task.isCancelled else { return nil }
        if let entry = take(for: lane) { return entry }
        if isDrained { return nil }
        let id = nextWaiter
        nextWaiter += 1
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters.append((id, lane, continuation))
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    private var isDrained: Bool { inputEnded && inFlight == 0 }

    private func take(for lane: String) -> Entry? {
        guard let index = entries.firstIndex(where: { $0.device.lane == nil || $0.device.lane == lane }) else {
            return nil
        }
        inFlight += 1
        return entries.remove(at: index)
    }

    private func serveWaiters() {
        var waiting = waiters
        waiters = []
        for waiter in waiting {
            if let entry = take(for: waiter.lane) {
                waiter.continuation.resume(returning: entry)
            } else {
                waiters.append(waiter)
            }
        }
        waiting = waiters
        guard isDrained else { return }
        waiters = []
        for waiter in waiting { waiter.continuation.resume(returning: nil) }
    }

    private func cancelWaiter(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(returning: nil)
    }
}
