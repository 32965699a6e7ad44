public import FoundationEssentials

/// The numbers of a shift report, worked out once from the records so that the page only lays them out
/// and tests can check them without reading HTML.
///
/// A unit is one device key within one batch; the final attempt at it says whether it was provisioned.
/// Yields count units, the failure Pareto counts failed attempts (every retry is time the line lost).
public struct ShiftReport: Sendable, Equatable {
    public var attempts: Int
    /// Units with a final attempt.
    public var settledUnits: Int
    /// Units whose final attempt succeeded.
    public var provisionedUnits: Int
    public var failedAttempts: Int
    /// The earliest start and the latest finish among the records; nil without records.
    public var firstStart: Date?
    public var lastFinish: Date?
    public var stations: [YieldRow]
    /// One row per station and lane: the same adapter name on two stations is two adapters.
    public var adapters: [YieldRow]
    public var failures: [FailureRow]
    public var throughput: Throughput
    public var steps: [StepTimes]
    public var firmware: [FirmwareRow]
    public var security: SecurityMix
    public var slowestUnits: [UnitTime]

    /// How many of the slowest units the report lists.
    public static let slowestUnitCount = 10

    public var yield: Double? { Self.share(provisionedUnits, of: settledUnits) }

    public init(_ records: [ProvisioningRecord]) {
        attempts = records.count
        settledUnits = records.count { $0.isFinal }
        provisionedUnits = records.count { $0.isFinal && $0.succeeded }
        failedAttempts = records.count { !$0.succeeded }
        firstStart = records.map(\.startedAt).min()
        lastFinish = records.map(\.finishedAt).max()
        stations = YieldRow.rows(records) { $0.station }
        adapters = YieldRow.rows(records) { "\($0.station) / \($0.adapter)" }
        failures = FailureRow.rows(records)
        throughput = Throughput(records)
        steps = StepTimes.rows(records)
        firmware = FirmwareRow.rows(records)
        security = SecurityMix(records)
        slowestUnits = Array(UnitTime.units(records).prefix(Self.slowestUnitCount))
    }

    /// `part / whole`, or nil when there is no whole to divide by.
    static func share(_ part: Int, of whole: Int) -> Double? {
        whole == 0 ? nil : Double(part) / Double(whole)
    }
}

extension ShiftReport {
    /// Attempts and yield of one station or one lane.
    public struct YieldRow: Sendable, Equatable {
        public var name: String
        public var attempts: Int
        public var settledUnits: Int
        public var provisionedUnits: Int
        /// Units provisioned by their first attempt, with no retry.
        public var firstPassUnits: Int

        public var yield: Double? { ShiftReport.share(provisionedUnits, of: settledUnits) }
        public var firstPassYield: Double? { ShiftReport.share(firstPassUnits, of: settledUnits) }

        static func rows(_ records: [ProvisioningRecord], by key: (ProvisioningRecord) -> String) -> [YieldRow] {
            Dictionary(grouping: records, by: key).map { name, group in
                YieldRow(
                    name: name, attempts: group.count, settledUnits: group.count { $0.isFinal },
                    provisionedUnits: group.count { $0.isFinal && $0.succeeded },
                    firstPassUnits: group.count { $0.isFinal && $0.succeeded && $0.attempt == 1 })
            }.sorted { $0.name < $1.name }
        }
    }

    /// One error code's place in the Pareto: most frequent first.
    public struct FailureRow: Sendable, Equatable {
        public var code: String
        public var attempts: Int
        /// Units this code left unprovisioned (their final attempt failed with it).
        public var lostUnits: Int
        /// The share of all failed attempts up to and including this row.
        public var cumulativeShare: Double

        static func rows(_ records: [ProvisioningRecord]) -> [FailureRow] {
            let failed = records.filter { !$0.succeeded }
            let counted = Dictionary(grouping: failed, by: \.code).map { code, group in
                (code: code, attempts: group.count, lost: group.count(where: \.isFinal))
            }.sorted { ($0.attempts, $1.code) > ($1.attempts, $0.code) }
            var running = 0
            return counted.map { entry in
                running += entry.attempts
                return FailureRow(
                    code: entry.code, attempts: entry.attempts, lostUnits: entry.lost,
                    cumulativeShare: Double(running) / Double(failed.count))
            }
        }
    }

    /// The spread of one step's durations over every attempt that ran it.
    public struct StepTimes: Sendable, Equatable {
        public var name: String
        public var count: Int
        public var minimum: Int
        public var median: Int
        public var p90: Int
        public var maximum: Int

        /// Steps in the order a provisioning runs them; steps a newer ztprov adds come after, as first seen.
        static let runOrder = [
            "scan", "connect", "join-hotspot", "session", "negotiate", "configure", "join", "device-id",
            "leave-hotspot", "disconnect", "handoff",
        ]

        static func rows(_ records: [ProvisioningRecord]) -> [StepTimes] {
            var order = runOrder
            var durations: [String: [Int]] = [:]
            for step in records.flatMap(\.steps) {
                if !order.contains(step.name) { order.append(step.name) }
                durations[step.name, default: []].append(step.milliseconds)
            }
            return order.compactMap { name in
                guard let values = durations[name]?.sorted(), let first = values.first, let last = values.last
                else { return nil }
                return StepTimes(
                    name: name, count: values.count, minimum: first, median: percentile(0.5, of: values),
                    p90: percentile(0.9, of: values), maximum: last)
            }
        }

        /// The nearest-rank percentile: the smallest value with at least `fraction` of the values at or below it.
        public static func percentile(_ fraction: Double, of sorted: [Int]) -> Int {
            let rank = Int((fraction * Double(sorted.count)).rounded(.up))
            return sorted[min(max(rank, 1), sorted.count) - 1]
        }
    }

    /// One software version the devices reported, and how the units that ran it fared.
    public struct FirmwareRow: Sendable, Equatable {
        /// `BluFi`, `Protocomm` or `Device`.
        public var component: String
        public var version: String
        public var attempts: Int
        public var settledUnits: Int
        public var provisionedUnits: Int

        static func rows(_ records: [ProvisioningRecord]) -> [FirmwareRow] {
            let components: [(String, KeyPath<FirmwareVersions, String?>)] = [
                ("Device", \.device), ("BluFi", \.bluFi), ("Protocomm", \.protocomm),
            ]
            return components.flatMap { component, version in
                Dictionary(grouping: records.filter { $0.firmware[keyPath: version] != nil }) {
                    $0.firmware[keyPath: version] ?? ""
                }.map { version, group in
                    FirmwareRow(
                        component: component, version: version, attempts: group.count,
                        settledUnits: group.count(where: \.isFinal),
                        provisionedUnits: group.count { $0.isFinal && $0.succeeded })
                }.sorted { ($0.attempts, $1.version) > ($1.attempts, $0.version) }
            }
        }
    }

    /// All the time one unit took, over every attempt at it.
    public struct UnitTime: Sendable, Equatable {
        public var deviceKey: String
        public var deviceID: String?
        public var station: String
        public var adapter: String
        public var attempts: Int
        public var milliseconds: Int
        /// The final attempt's code, or the last attempt's when none was final.
        public var code: String
        /// The longest single step over the unit's attempts.
        public var slowestStep: RecordedStep?

        /// Every unit, slowest first.
        static func units(_ records: [ProvisioningRecord]) -> [UnitTime] {
            Dictionary(grouping: records) { [$0.batchID, $0.deviceKey] }.values.map { group in
                let ordered = group.sorted { $0.startedAt < $1.startedAt }
                let last = ordered.last(where: \.isFinal) ?? ordered[ordered.count - 1]
                return UnitTime(
                    deviceKey: last.deviceKey, deviceID: ordered.last(where: { $0.deviceID != nil })?.deviceID,
                    station: last.station, adapter: last.adapter, attempts: group.count,
                    milliseconds: group.reduce(0) { $0.addingSaturated($1.milliseconds) }, code: last.code,
                    slowestStep: group.flatMap(\.steps).max { $0.milliseconds < $1.milliseconds })
            }.sorted { ($0.milliseconds, $1.deviceKey) > ($1.milliseconds, $0.deviceKey) }
        }
    }

    /// Attempts per time slot, from the first start to the last finish.
    public struct Throughput: Sendable, Equatable {
        /// The start of the first slot.
        public var start: Date
        public var slotSeconds: Int
        /// Successful attempts that finished in each slot.
        public var provisioned: [Int]
        /// Failed attempts that finished in each slot.
        public var failed: [Int]

        /// Slot lengths to choose from, in seconds: the shortest that keeps a shift to ``maximumSlots``.
        static let slotChoices = [60, 300, 600, 900, 1800, 3600, 7200, 14_400, 28_800, 86_400]
        static let maximumSlots = 48

        init(_ records: [ProvisioningRecord]) {
            // A clock that stepped back leaves an attempt finished before it started: the slots then run
            // from the earliest of all instants to the latest.
            let instants = records.flatMap { [$0.startedAt, $0.finishedAt] }
            guard let first = instants.min(), let last = instants.max() else {
                self.init(start: Date(timeIntervalSince1970: 0), slotSeconds: 60, provisioned: [], failed: [])
                return
            }
            let span = last.timeIntervalSince(first)
            let slot =
                Self.slotChoices.first { span / Double($0) < Double(Self.maximumSlots - 1) }
                ?? Int((span / Double(Self.maximumSlots - 1)).rounded(.up))
            let startSecond = (first.timeIntervalSince1970 / Double(slot)).rounded(.down) * Double(slot)
            let count = Int(((last.timeIntervalSince1970 - startSecond) / Double(slot)).rounded(.down)) + 1
            var provisioned = Array(repeating: 0, count: count)
            var failed = Array(repeating: 0, count: count)
            for record in records {
                let index = min(Int((record.finishedAt.timeIntervalSince1970 - startSecond) / Double(slot)), count - 1)
                if record.succeeded { provisioned[max(index, 0)] += 1 } else { failed[max(index, 0)] += 1 }
            }
            self.init(
                start: Date(timeIntervalSince1970: startSecond), slotSeconds: slot, provisioned: provisioned,
                failed: failed)
        }

        public init(start: Date, slotSeconds: Int, provisioned: [Int], failed: [Int]) {
            self.start = start
            self.slotSeconds = slotSeconds
            self.provisioned = provisioned
            self.failed = failed
        }
    }
}

extension Int {
    /// The sum, held at the largest or smallest value instead of overflowing.
    func addingSaturated(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}

extension ProvisioningRecord {
    /// The attempt's wall time in whole milliseconds.
    var milliseconds: Int { Int((finishedAt.timeIntervalSince(startedAt) * 1000).rounded()) }
}
