import Foundation
import Records
import TestSupport
import Testing

/// The metrics `report --serve` exposes: counts by label, the unit-duration histogram, units in progress,
/// and label values that no record text can break out of.
@Suite struct LineMetricsTests {
    static func metrics(_ records: [ProvisioningRecord]) -> LineMetrics {
        var metrics = LineMetrics()
        for record in records { metrics.add(record) }
        return metrics
    }

    /// The samples of the text: `name{labels}` to value.
    static func samples(_ text: String) -> [String: String] {
        var samples: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            samples[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return samples
    }

    @Test func theShiftsAttemptsResultsAndDurationsAreCounted() {
        let samples = Self.samples(Self.metrics(ShiftRecords.records()).text)
        let labels = "station=\"line-1\",path=\"ble\",protocol=\"unknown\""
        #expect(samples["ztprov_attempts_total{\(labels),code=\"ble.link-lost\"}"] == "4")
        #expect(samples["ztprov_attempts_total{\(labels),code=\"ok\"}"] == "15")
        #expect(samples["ztprov_units_settled_total{\(labels),code=\"ble.link-lost\"}"] == "1")
        #expect(samples["ztprov_units_settled_total{\(labels),code=\"ok\"}"] == "15")
        #expect(samples["ztprov_unit_duration_seconds_count{station=\"line-1\"}"] == "18")
        #expect(samples["ztprov_unit_duration_seconds_bucket{station=\"line-1\",le=\"+Inf\"}"] == "18")
        // Only b5 (13.15 s over its two attempts) took longer than 10 s.
        #expect(samples["ztprov_unit_duration_seconds_bucket{station=\"line-1\",le=\"10\"}"] == "17")
        #expect(samples["ztprov_unit_duration_seconds_bucket{station=\"line-1\",le=\"20\"}"] == "18")
        #expect(samples["ztprov_units_in_progress{station=\"line-2\"}"] == "0")
        #expect(samples["ztprov_last_record_timestamp_seconds{station=\"line-2\"}"] != nil)
    }

    /// The security team's view: each provisioned unit once, by how its credentials were secured; failed
    /// units and retries that were not final are not counted, and records from before the column say so.
    @Test func provisionedUnitsAreCountedByTheirSecurity() throws {
        var records = Array(
            ShiftRecords.records().filter { $0.station == "line-1" && $0.succeeded && $0.isFinal }.prefix(3))
        try #require(records.count == 3)
        records[0].securedWith = ProvisioningSecurity(.bluFiNone)
        records[1].securedWith = ProvisioningSecurity(.protocomm2)
        records[2].securedWith = nil
        var notFinal = records[1]
        notFinal.isFinal = false
        var failed = records[1]
        failed.code = "ble.link-lost"
        let samples = Self.samples(Self.metrics(records + [notFinal, failed]).text)
        let family = "ztprov_units_provisioned_by_security_total"
        let counted = samples.filter { $0.key.hasPrefix(family + "{") }
        #expect(
            counted == [
                "\(family){station=\"line-1\",protocol=\"unknown\",secured_with=\"blufi-none\",level=\"none\"}": "1",
                "\(family){station=\"line-1\",protocol=\"unknown\",secured_with=\"protocomm-sec2\",level=\"authenticated\"}":
                    "1",
                "\(family){station=\"line-1\",protocol=\"unknown\",secured_with=\"unknown\",level=\"unknown\"}": "1",
            ], "\(counted)")
    }

    @Test func aUnitWhoseLatestAttemptWasNotFinalIsInProgress() throws {
        var first = try #require(ShiftRecords.records().first)
        first.isFinal = false
        first.code = "ble.link-lost"
        var metrics = Self.metrics([first])
        #expect(metrics.unitsInProgress == ["line-1": 1])
        #expect(Self.samples(metrics.text)["ztprov_unit_duration_seconds_count{station=\"line-1\"}"] == nil)
        var retry = first
        retry.attempt = 2
        retry.isFinal = true
        retry.code = "ok"
        retry.startedAt = first.finishedAt
        retry.finishedAt = first.finishedAt.addingTimeInterval(2)
        metrics.add(retry)
        #expect(metrics.unitsInProgress.isEmpty)
        let samples = Self.samples(metrics.text)
        #expect(samples["ztprov_units_in_progress{station=\"line-1\"}"] == "0")
        // Both attempts' time: a0's 2 s, then 2 s more.
        #expect(samples["ztprov_unit_duration_seconds_sum{station=\"line-1\"}"] == "4")
    }

    /// Generated hostile station names and codes: every sample stays on one line of the
    /// `name{label="value",...} number` shape, and unescaping a label value gives the recorded text with
    /// control characters other than the line feed shown as U+FFFD.
    @Test func hostileLabelValuesStayInsideTheirQuotes() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<40 {
            var record = try #require(ShiftRecords.records().first)
            record.station = HostileText.next(&random)
            record.code = HostileText.next(&random)
            record.provisioningProtocol = HostileText.next(&random)
            let text = Self.metrics([record]).text
            let sample = /^[a-z_]+\{(?:[a-z_]+="(?:[^"\\\n\r]|\\\\|\\"|\\n)*",?)*\} [0-9.e+-]+$/
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            where !line.hasPrefix("# ") {
                #expect(line.wholeMatch(of: sample) != nil, "\(line)")
            }
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("ztprov_attempts_total{") })
            let quoted = try #require(line.firstMatch(of: /station="((?:[^"\\]|\\.)*)"/)?.output.1)
            #expect(Self.unescaped(String(quoted)) == HostileText.asMetricLabel(record.station))
        }
    }

    static func unescaped(_ value: String) -> String {
        var result = ""
        var escaping = false
        for character in value {
            if escaping {
                result.append(character == "n" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }
}
