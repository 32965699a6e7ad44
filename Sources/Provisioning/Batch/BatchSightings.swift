/// What each lane heard lately: the newest advertisement per unit and lane, by address and by name.
///
/// A sighting counts while it is fresh: a unit that stopped advertising (connected elsewhere, switched off,
/// carried away) stops counting after ``freshFor``, and is then treated as heard by nobody.
struct BatchSightings {
    struct Heard {
        let rssi: Int?
        let at: ContinuousClock.Instant
    }

    /// How long an advertisement says the unit is there; a radio hears an advertising unit several times a
    /// second, BlueZ reports it at least every second while discovering.
    static let freshFor: Duration = .seconds(5)

    private var byAddress: [String: [String: Heard]] = [:]
    private var byName: [String: [String: Heard]] = [:]

    /// Notes a sighting; true when it made the unit fresh on that lane (it was unheard or stale there).
    @discardableResult
    mutating func note(_ sighting: BatchSighting, at now: ContinuousClock.Instant) -> Bool {
        let heard = Heard(rssi: sighting.rssi, at: now)
        let wasFresh = byAddress[sighting.address]?[sighting.lane].map { isFresh($0, now) } ?? false
        byAddress[sighting.address, default: [:]][sighting.lane] = heard
        if let name = sighting.name { byName[name, default: [:]][sighting.lane] = heard }
        return !wasFresh
    }

    /// Forgets what `lane` heard (the lane stopped).
    mutating func forget(lane: String) {
        for key in byAddress.keys { byAddress[key]?[lane] = nil }
        for key in byName.keys { byName[key]?[lane] = nil }
    }

    /// The lanes that heard `device` lately, with how strongly.
    func lanes(hearing device: BatchDevice, now: ContinuousClock.Instant) -> [String: Heard] {
        let heard = device.address.flatMap { byAddress[$0] } ?? device.name.flatMap { byName[$0] } ?? [:]
        return heard.filter { isFresh($0.value, now) }
    }

    /// Whether each of `units` was heard lately by every one of `lanes` that may take it.
    func everyLaneHeard(_ units: [BatchDevice], lanes: Set<String>, now: ContinuousClock.Instant) -> Bool {
        units.allSatisfy { unit in
            let heard = self.lanes(hearing: unit, now: now)
            return lanes.allSatisfy { !unit.mayUse($0) || heard[$0] != nil }
        }
    }

    private func isFresh(_ heard: Heard, _ now: ContinuousClock.Instant) -> Bool {
        now - heard.at <= Self.freshFor
    }
}
