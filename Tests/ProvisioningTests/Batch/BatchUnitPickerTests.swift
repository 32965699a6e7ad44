import TestSupport
import Testing

@testable import Provisioning

/// Which waiting lane takes which unit, from generated advertisement sets: each case checks the rules
/// (strongest waiting lane, unheard units in queue order, pins, stale sightings) rather than one layout.
@Suite struct BatchUnitPickerTests {
    static let lanes = ["hci0", "hci1", "hci2", "hci3"]
    static let start = ContinuousClock.now

    struct Layout {
        var units: [BatchDevice] = []
        var waiting: [String] = []
        var sightings = BatchSightings()
        /// Fresh RSSI by unit index and lane.
        var fresh: [Int: [String: Int]] = [:]
        var stale: [(unit: Int, lane: String)] = []
    }

    static func address(_ index: Int) -> String { "24:0A:C4:00:01:\(String(index, radix: 16, uppercase: true))" }

    /// Up to 12 units (some by name, some pinned), a random subset of waiting lanes, and sightings: fresh ones
    /// at random strengths, stale ones older than the freshness window.
    static func generate(_ random: inout SplitMix64) -> Layout {
        var layout = Layout()
        let now = start + .seconds(60)
        for index in 0..<(1 + random.below(12)) {
            let byName = random.below(4) == 0
            let pinned = random.below(6) == 0 ? lanes[random.below(lanes.count)] : nil
            layout.units.append(
                BatchDevice(
                    address: byName ? nil : address(index), name: byName ? "MH-\(index)" : nil, lane: pinned,
                    line: index + 1))
            for lane in lanes {
                switch random.below(5) {
                case 0, 1:
                    let rssi = -30 - random.below(60)
                    layout.fresh[index, default: [:]][lane] = rssi
                    layout.sightings.note(
                        BatchSighting(lane: lane, address: address(index), name: "MH-\(index)", rssi: rssi),
                        at: now - .milliseconds(random.below(4_000)))
                case 2:
                    layout.stale.append((index, lane))
                    layout.sightings.note(
                        BatchSighting(lane: lane, address: address(index), name: "MH-\(index)", rssi: -20),
                        at: now - BatchSightings.freshFor - .milliseconds(1 + random.below(10_000)))
                default:
                    break
                }
            }
        }
        layout.waiting = lanes.filter { _ in random.below(3) > 0 }
        return layout
    }

    static func assign(_ layout: Layout) -> [BatchUnitPicker.Assignment] {
        BatchUnitPicker.assign(
            layout.units, to: layout.waiting, sightings: layout.sightings, now: start + .seconds(60))
    }

    @Test(arguments: 0..<300)
    func assignmentsFollowTheRules(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let layout = Self.generate(&random)
        let assignments = Self.assign(layout)
        let laneOf = Dictionary(uniqueKeysWithValues: assignments.map { ($0.entry, layout.waiting[$0.waiter]) })
        let unitOf = Dictionary(uniqueKeysWithValues: assignments.map { (layout.waiting[$0.waiter], $0.entry) })
        #expect(Set(assignments.map(\.waiter)).count == assignments.count, "a lane took two units")
        #expect(Set(assignments.map(\.entry)).count == assignments.count, "a unit went to two lanes")
        func mayUse(_ unit: Int, _ lane: String) -> Bool { layout.units[unit].lane.map { $0 == lane } ?? true }
        /// Lanes that heard the unit and may take it.
        func heardBy(_ unit: Int) -> [String: Int] { (layout.fresh[unit] ?? [:]).filter { mayUse(unit, $0.key) } }
        /// The lane took a heard unit ahead of `unit` in the queue.
        func busyBefore(_ lane: String, _ unit: Int) -> Bool {
            guard let taken = unitOf[lane] else { return false }
            return taken < unit && !heardBy(taken).isEmpty
        }
        for (unit, lane) in laneOf {
            #expect(mayUse(unit, lane), "unit \(unit) is pinned elsewhere")
            if heardBy(unit).isEmpty {
                #expect(
                    layout.units.indices.allSatisfy { other in
                        heardBy(other).isEmpty || heardBy(other)[lane] == nil || laneOf[other] != nil
                            || !mayUse(other, lane)
                    }, "\(lane) took an unheard unit while a unit it heard was free")
                let earlierUnheard = (0..<unit).filter { heardBy($0).isEmpty && laneOf[$0] == nil && mayUse($0, lane) }
                #expect(earlierUnheard.isEmpty, "\(lane) skipped unheard units \(earlierUnheard)")
            } else {
                let rssi = heardBy(unit)[lane]
                #expect(rssi != nil, "\(lane) took unit \(unit) it never heard while others did")
                for (other, otherRSSI) in heardBy(unit) where layout.waiting.contains(other) && mayUse(unit, other) {
                    #expect(
                        otherRSSI <= rssi ?? Int.min || busyBefore(other, unit),
                        "\(other) heard unit \(unit) at \(otherRSSI) dBm, stronger than \(lane) at \(rssi ?? 0)")
                }
            }
        }
        for unit in layout.units.indices where laneOf[unit] == nil && !heardBy(unit).isEmpty {
            for lane in heardBy(unit).keys where layout.waiting.contains(lane) && mayUse(unit, lane) {
                #expect(busyBefore(lane, unit), "unit \(unit) left although waiting \(lane) heard it")
            }
        }
    }

    @Test(arguments: 0..<100)
    func staleSightingsCountAsUnheard(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let layout = Self.generate(&random)
        var freshOnly = layout
        freshOnly.sightings = BatchSightings()
        for (unit, lanes) in layout.fresh {
            for (lane, rssi) in lanes {
                freshOnly.sightings.note(
                    BatchSighting(lane: lane, address: Self.address(unit), name: "MH-\(unit)", rssi: rssi),
                    at: Self.start + .seconds(59))
            }
        }
        #expect(Self.assign(layout) == Self.assign(freshOnly))
    }

    @Test(arguments: 0..<50)
    func withoutSightingsLanesTakeUnitsInQueueOrder(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let count = 1 + random.below(10)
        let units = (0..<count).map { BatchDevice(address: Self.address($0), line: $0 + 1) }
        let waiting = Array(Self.lanes.prefix(1 + random.below(4)))
        let assignments = BatchUnitPicker.assign(units, to: waiting, sightings: BatchSightings(), now: .now)
        let expected = (0..<min(count, waiting.count)).map { BatchUnitPicker.Assignment(waiter: $0, entry: $0) }
        #expect(assignments == expected)
    }

    @Test func theStrongestWaitingLaneTakesAUnitAndTiesGoToTheLongestWaiting() {
        var sightings = BatchSightings()
        let now = ContinuousClock.now
        let unit = BatchDevice(address: Self.address(1), line: 1)
        sightings.note(BatchSighting(lane: "hci0", address: Self.address(1), rssi: -70), at: now)
        sightings.note(BatchSighting(lane: "hci2", address: Self.address(1), rssi: -45), at: now)
        #expect(
            BatchUnitPicker.assign([unit], to: ["hci0", "hci1", "hci2"], sightings: sightings, now: now)
                == [BatchUnitPicker.Assignment(waiter: 2, entry: 0)])
        sightings.note(BatchSighting(lane: "hci0", address: Self.address(1), rssi: -45), at: now)
        #expect(
            BatchUnitPicker.assign([unit], to: ["hci2", "hci0"], sightings: sightings, now: now)
                == [BatchUnitPicker.Assignment(waiter: 0, entry: 0)])
    }

    @Test func aUnitOnlyABusyLaneHeardWaitsForThatLane() {
        var sightings = BatchSightings()
        let now = ContinuousClock.now
        sightings.note(BatchSighting(lane: "hci1", address: Self.address(1), rssi: -50), at: now)
        let units = [BatchDevice(address: Self.address(1), line: 1), BatchDevice(address: Self.address(2), line: 2)]
        #expect(
            BatchUnitPicker.assign(units, to: ["hci0"], sightings: sightings, now: now)
                == [BatchUnitPicker.Assignment(waiter: 0, entry: 1)])
        sightings.forget(lane: "hci1")
        #expect(
            BatchUnitPicker.assign(units, to: ["hci0"], sightings: sightings, now: now)
                == [BatchUnitPicker.Assignment(waiter: 0, entry: 0)])
    }

    @Test func aPinnedUnitOnlyOtherLanesHeardIsSearchedForByItsLane() {
        var sightings = BatchSightings()
        let now = ContinuousClock.now
        sightings.note(BatchSighting(lane: "hci1", address: Self.address(1), rssi: -40), at: now)
        let units = [BatchDevice(address: Self.address(1), lane: "hci0", line: 1)]
        #expect(
            BatchUnitPicker.assign(units, to: ["hci1", "hci0"], sightings: sightings, now: now)
                == [BatchUnitPicker.Assignment(waiter: 1, entry: 0)])
    }

    @Test func aUnitNamedByItsAdvertisedNameIsMatchedByName() {
        var sightings = BatchSightings()
        let now = ContinuousClock.now
        sightings.note(BatchSighting(lane: "hci3", address: Self.address(9), name: "MH-0009", rssi: -60), at: now)
        let units = [BatchDevice(name: "MH-0001", line: 1), BatchDevice(name: "MH-0009", line: 2)]
        #expect(
            BatchUnitPicker.assign(units, to: ["hci0", "hci3"], sightings: sightings, now: now)
                == [BatchUnitPicker.Assignment(waiter: 1, entry: 1), BatchUnitPicker.Assignment(waiter: 0, entry: 0)])
    }
}
