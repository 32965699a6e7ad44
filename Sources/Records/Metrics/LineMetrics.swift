import FoundationEssentials

/// The line's counters for a metrics scraper, folded in one record at a time so a scrape costs the same
/// whatever the number of records behind it.
///
/// Attempts and settled units count by station, path, protocol and code; a unit's duration (all its
/// attempts) goes into a histogram per station once its final attempt lands. Units whose latest attempt
/// was not final are in progress.
public struct LineMetrics: Sendable {
    /// Upper bounds of the unit-duration histogram's buckets, in seconds.
    public static let durationBuckets: [Double] = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300]

    /// One sample's labels as they print, name and value; samples sort by their values.
    struct Labels: Hashable, Comparable {
        let names: [String]
        let values: [String]

        init(_ pairs: KeyValuePairs<String, String>) {
            names = pairs.map(\.key)
            values = pairs.map(\.value)
        }

        var pairs: [(String, String)] { Array(zip(names, values)) }

        static func < (left: Labels, right: Labels) -> Bool { left.values.lexicographicallyPrecedes(right.values) }
    }

    struct Unit: Hashable {
        var batchID: String
        var deviceKey: String
    }

    struct Histogram {
        var counts = Array(repeating: 0, count: LineMetrics.durationBuckets.count)
        var total = 0
        var milliseconds = 0

        mutating func observe(milliseconds value: Int) {
            for (index, bound) in LineMetrics.durationBuckets.enumerated() where Double(value) <= bound * 1000 {
                counts[index] += 1
            }
            total += 1
            milliseconds = milliseconds.addingSaturated(value)
        }
    }

    private var attempts: [Labels: Int] = [:]
    private var results: [Labels: Int] = [:]
    private var provisionedBySecurity: [Labels: Int] = [:]
    /// Units with attempts but no final one yet: the station of the latest attempt and the time so far.
    private var open: [Unit: (station: String, milliseconds: Int)] = [:]
    private var durations: [String: Histogram] = [:]
    private var lastRecord: [String: Date] = [:]

    public init() {}

    /// Counts one record in.
    public mutating func add(_ record: ProvisioningRecord) {
        let provisioningProtocol = record.provisioningProtocol ?? "unknown"
        let labels = Labels([
            "station": record.station, "path": record.path.rawValue, "protocol": provisioningProtocol,
            "code": record.code,
        ])
        attempts[labels, default: 0] += 1
        let unit = Unit(batchID: record.batchID, deviceKey: record.deviceKey)
        let spent = (open[unit]?.milliseconds ?? 0).addingSaturated(max(record.milliseconds, 0))
        if record.isFinal {
            results[labels, default: 0] += 1
            if record.succeeded {
                let security = Labels([
                    "station": record.station, "protocol": provisioningProtocol,
                    "secured_with": record.securedWith?.text ?? "unknown",
                    "level": record.securedWith?.level.rawValue ?? "unknown",
                ])
                provisionedBySecurity[security, default: 0] += 1
            }
            open[unit] = nil
            durations[record.station, default: Histogram()].observe(milliseconds: spent)
        } else {
            open[unit] = (record.station, spent)
        }
        lastRecord[record.station] = max(lastRecord[record.station] ?? record.finishedAt, record.finishedAt)
    }

    /// Units in progress, by station.
    public var unitsInProgress: [String: Int] {
        Dictionary(grouping: open.values, by: \.station).mapValues(\.count)
    }

    /// The metrics in the Prometheus text format.
    public var text: String {
        var text = PrometheusText.family(
            "ztprov_attempts_total", type: "counter",
            help: "Provisioning attempts recorded, by station, path, protocol and result code (ok or an error code).")
        for (labels, count) in attempts.sorted(by: { $0.key < $1.key }) {
            text += PrometheusText.sample("ztprov_attempts_total", labels.pairs, "\(count)")
        }
        text += PrometheusText.family(
            "ztprov_units_settled_total", type: "counter",
            help: "Units settled (the final attempt at each), by station, path, protocol and result code.")
        for (labels, count) in results.sorted(by: { $0.key < $1.key }) {
            text += PrometheusText.sample("ztprov_units_settled_total", labels.pairs, "\(count)")
        }
        text += PrometheusText.family(
            "ztprov_units_provisioned_by_security_total", type: "counter",
            help: "Units provisioned, by station, protocol, how the credentials were secured (secured_with) and "
                + "its level (none, encrypted, authenticated; unknown for records older than the column).")
        for (labels, count) in provisionedBySecurity.sorted(by: { $0.key < $1.key }) {
            text += PrometheusText.sample("ztprov_units_provisioned_by_security_total", labels.pairs, "\(count)")
        }
        text += PrometheusText.family(
            "ztprov_unit_duration_seconds", type: "histogram",
            help: "Time a settled unit took over all its attempts, by station.")
        for (station, histogram) in durations.sorted(by: { $0.key < $1.key }) {
            for (bound, count) in zip(Self.durationBuckets, histogram.counts) {
                text += PrometheusText.sample(
                    "ztprov_unit_duration_seconds_bucket",
                    [("station", station), ("le", PrometheusText.number(bound))],
                    "\(count)")
            }
            text += PrometheusText.sample(
                "ztprov_unit_duration_seconds_bucket", [("station", station), ("le", "+Inf")], "\(histogram.total)")
            text += PrometheusText.sample(
                "ztprov_unit_duration_seconds_sum", [("station", station)],
                PrometheusText.number(Double(histogram.milliseconds) / 1000))
            text += PrometheusText.sample(
                "ztprov_unit_duration_seconds_count", [("station", station)], "\(histogram.total)")
        }
        text += PrometheusText.family(
            "ztprov_units_in_progress", type: "gauge",
            help: "Units whose latest attempt was not final (a retry is due), by the station of that attempt.")
        let inProgress = unitsInProgress
        for station in lastRecord.keys.sorted() {
            text += PrometheusText.sample(
                "ztprov_units_in_progress", [("station", station)], "\(inProgress[station] ?? 0)")
        }
        text += PrometheusText.family(
            "ztprov_last_record_timestamp_seconds", type: "gauge",
            help: "When the station's latest recorded attempt finished, in seconds since the epoch.")
        for (station, instant) in lastRecord.sorted(by: { $0.key < $1.key }) {
            text += PrometheusText.sample(
                "ztprov_last_record_timestamp_seconds", [("station", station)],
                PrometheusText.number((instant.timeIntervalSince1970 * 1000).rounded() / 1000))
        }
        return text
    }
}
