public import FoundationEssentials

/// What the live page adds to a shift report: the line as it is now.
///
/// Units in progress have attempts but no final one yet; a station has gone quiet when its latest record
/// finished longer ago than the quiet span. Yields per station and hour count units by the hour (UTC)
/// their final attempt finished in.
public struct LineActivity: Sendable, Equatable {
    public var unitsInProgress: [ShiftReport.UnitTime]
    public var quietStations: [QuietStation]
    public var hourlyYields: [HourlyYield]
    /// Units provisioned per hour, per station and for the whole line (named `Line`), over each one's span.
    public var rates: [Rate]

    public struct QuietStation: Sendable, Equatable {
        public var station: String
        public var lastRecord: Date
    }

    public struct HourlyYield: Sendable, Equatable {
        public var station: String
        public var hour: Date
        public var settledUnits: Int
        public var provisionedUnits: Int

        public var yield: Double? { ShiftReport.share(provisionedUnits, of: settledUnits) }
    }

    public struct Rate: Sendable, Equatable {
        public var name: String
        public var provisionedUnits: Int
        /// Units per hour; nil when the span is too short to say.
        public var perHour: Double?
    }

    public init(_ records: [ProvisioningRecord], now: Date, quietAfter: Duration) {
        let units = Dictionary(grouping: records) { [$0.batchID, $0.deviceKey] }.values
        unitsInProgress = ShiftReport.UnitTime.units(units.filter { !$0.contains(where: \.isFinal) }.flatMap { $0 })
        let latest = Dictionary(grouping: records, by: \.station).mapValues { $0.map(\.finishedAt).max() ?? now }
        let quietSeconds = Double(quietAfter.components.seconds)
        quietStations = latest.filter { now.timeIntervalSince($0.value) > quietSeconds }
            .map { QuietStation(station: $0.key, lastRecord: $0.value) }.sorted { $0.station < $1.station }
        let finals = records.filter(\.isFinal)
        hourlyYields = Dictionary(grouping: finals) { [$0.station, Self.hourText($0.finishedAt)] }.map { _, group in
            HourlyYield(
                station: group[0].station, hour: Self.hour(of: group[0].finishedAt), settledUnits: group.count,
                provisionedUnits: group.count(where: \.succeeded))
        }.sorted { ($0.station, $0.hour) < ($1.station, $1.hour) }
        let stations = Dictionary(grouping: records, by: \.station).map { Self.rate($0.key, $0.value) }
        rates = stations.sorted { $0.name < $1.name } + [Self.rate("Line", records)]
    }

    private static func rate(_ name: String, _ records: [ProvisioningRecord]) -> Rate {
        let provisioned = records.count { $0.isFinal && $0.succeeded }
        let span =
            (records.map(\.finishedAt).max()?.timeIntervalSince1970 ?? 0)
            - (records.map(\.startedAt).min()?.timeIntervalSince1970 ?? 0)
        return Rate(
            name: name, provisionedUnits: provisioned, perHour: span > 0 ? Double(provisioned) / span * 3600 : nil)
    }

    static func hour(of instant: Date) -> Date {
        Date(timeIntervalSince1970: (instant.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
    }

    private static func hourText(_ instant: Date) -> String { "\(hour(of: instant).timeIntervalSince1970)" }
}
