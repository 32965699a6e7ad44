/// Which waiting lane takes which queued unit, from what each lane's radio heard.
///
/// First, each unit some waiting lane heard goes, in queue order, to the waiting lane that heard it most
/// strongly: that lane's fixture holds it, or at least its radio has the best link. Then each lane still
/// waiting takes the first unit nobody heard lately, and looks for it itself until the scan deadline (so a
/// unit that is not there ends as "not found" instead of waiting forever). A unit only a busy lane heard
/// waits for that lane. Without any sightings (no discovery running) this is plain queue order.
enum BatchUnitPicker {
    struct Assignment: Equatable {
        /// The waiting lane's position in the list given.
        let waiter: Int
        /// The unit's position in the queue.
        let entry: Int
    }

    /// With `takingUnheard` false (discovery just started and may not have heard a unit yet) lanes take only
    /// units they heard.
    static func assign(
        _ units: [BatchDevice], to waitingLanes: [String], sightings: BatchSightings, now: ContinuousClock.Instant,
        takingUnheard: Bool = true
    ) -> [Assignment] {
        var free = Array(waitingLanes.indices)
        var taken: Set<Int> = []
        var assignments: [Assignment] = []
        var unheard: [Int] = []
        for (index, unit) in units.enumerated() where !free.isEmpty {
            // A unit pinned to a lane counts as heard only when that lane heard it.
            let heard = sightings.lanes(hearing: unit, now: now).filter { unit.mayUse($0.key) }
            if heard.isEmpty {
                unheard.append(index)
                continue
            }
            let candidates = free.filter { heard[waitingLanes[$0]] != nil && unit.mayUse(waitingLanes[$0]) }
            // The strongest; a sighting without RSSI counts as weakest, and ties go to the longest waiting.
            guard
                let best = candidates.max(by: {
                    (heard[waitingLanes[$0]]?.rssi ?? Int.min) < (heard[waitingLanes[$1]]?.rssi ?? Int.min)
                })
            else { continue }
            free.removeAll { $0 == best }
            taken.insert(index)
            assignments.append(Assignment(waiter: best, entry: index))
        }
        for waiter in free where takingUnheard {
            let lane = waitingLanes[waiter]
            guard let index = unheard.first(where: { !taken.contains($0) && units[$0].mayUse(lane) }) else { continue }
            taken.insert(index)
            assignments.append(Assignment(waiter: waiter, entry: index))
        }
        return assignments
    }
}

extension BatchDevice {
    /// False when the unit is pinned to another lane.
    func mayUse(_ lane: String) -> Bool { self.lane == nil || self.lane == lane }
}
