import Foundation
import Records
import TestSupport
import Testing

/// The shift report's numbers against a shift whose numbers were worked out by hand (``ShiftRecords``).
@Suite struct ShiftReportTests {
    let report = ShiftReport(ShiftRecords.records())

    @Test func totalsCountUnitsByTheirFinalAttempt() {
        #expect(report.attempts == 29)
        #expect(report.settledUnits == 24)
        #expect(report.provisionedUnits == 21)
        #expect(report.failedAttempts == 8)
        #expect(report.yield == 21.0 / 24)
        #expect(report.firstStart == ShiftRecords.start)
    }

    @Test func yieldPerStationAndPerAdapter() {
        #expect(report.stations.map(\.name) == ["line-1", "line-2"])
        #expect(report.stations.map(\.settledUnits) == [18, 6])
        #expect(report.stations.map(\.provisionedUnits) == [15, 6])
        #expect(report.stations.map(\.attempts) == [22, 7])
        #expect(report.stations.map(\.firstPassUnits) == [13, 5])
        #expect(report.adapters.map(\.name) == ["line-1 / hci0", "line-1 / hci1", "line-2 / hci0"])
        #expect(report.adapters.map(\.yield) == [0.8, 7.0 / 8, 1])
        #expect(report.adapters.map(\.firstPassYield) == [0.7, 0.75, 5.0 / 6])
    }

    @Test func paretoIsMostFrequentFirstThenByCode() {
        #expect(
            report.failures.map(\.code) == [
                "ble.link-lost", "ble.device-not-found", "blufi.wifi-wrong-password", "timeout",
            ])
        #expect(report.failures.map(\.attempts) == [5, 1, 1, 1])
        #expect(report.failures.map(\.lostUnits) == [1, 1, 1, 0])
        #expect(report.failures.map(\.cumulativeShare) == [0.625, 0.75, 0.875, 1])
    }

    @Test func stepTimesInRunOrderWithNearestRankPercentiles() {
        #expect(report.steps.map(\.name) == ["scan", "connect", "negotiate", "configure", "join", "handoff"])
        let connect = report.steps[1]
        #expect(
            [connect.count, connect.minimum, connect.median, connect.p90, connect.maximum] == [28, 400, 530, 650, 670]
                as [Int])
        let scan = report.steps[0]
        #expect([scan.count, scan.median, scan.maximum] == [29, 200, 5000] as [Int])
        let join = report.steps[4]
        #expect([join.count, join.median, join.p90, join.maximum] == [23, 1200, 1200, 10_000] as [Int])
    }

    @Test(arguments: [
        ([1], 0.5, 1), ([1, 2], 0.5, 1), ([1, 2], 0.9, 2), (Array(1...10), 0.9, 9), (Array(1...100), 0.5, 50),
        (Array(1...100), 0.9, 90), (Array(1...101), 0.5, 51), ([7, 7, 7], 0.9, 7),
    ])
    func percentileIsTheNearestRank(values: [Int], fraction: Double, expected: Int) {
        #expect(ShiftReport.StepTimes.percentile(fraction, of: values) == expected)
    }

    @Test func firmwareVersionsWithTheirYield() {
        let rows = report.firmware.map {
            "\($0.component) \($0.version) \($0.attempts) \($0.settledUnits) \($0.provisionedUnits)"
        }
        #expect(rows == ["Device 2.1.0 6 6 6", "BluFi 1.4 15 13 13", "BluFi 1.3 13 10 8"])
    }

    @Test func slowestUnitsAddUpEveryAttempt() {
        let slowest = report.slowestUnits
        #expect(slowest.count == ShiftReport.slowestUnitCount)
        #expect(slowest.prefix(6).map(\.deviceKey) == ["b5", "b2", "a4", "c3", "a1", "a7"])
        #expect(slowest.prefix(6).map(\.milliseconds) == [13_150, 5000, 3850, 3320, 2780, 2520])
        #expect(slowest[0].attempts == 2)
        #expect(slowest[0].code == "ok")
        #expect(slowest[0].slowestStep == RecordedStep(name: "join", milliseconds: 10_000))
        #expect(slowest[5].code == "ble.link-lost")
    }

    @Test func throughputCountsAttemptsByTheMinuteTheyFinished() {
        let series = report.throughput
        #expect(series.slotSeconds == 60)
        #expect(series.start == ShiftRecords.start)
        #expect(zip(series.provisioned, series.failed).map { $0 + $1 } == [3, 3, 3, 3, 3, 3, 3, 2, 2, 1, 1, 1, 1])
        #expect(series.provisioned.reduce(0, +) == 21)
        #expect(series.failed.reduce(0, +) == 8)
    }

    @Test func longShiftsGetLongerSlots() {
        var records = ShiftRecords.records()
        records[records.count - 1].startedAt = ShiftRecords.start + 10 * 3600
        records[records.count - 1].finishedAt = ShiftRecords.start + 10 * 3600 + 1
        let series = ShiftReport(records).throughput
        #expect(series.slotSeconds == 900)
        #expect(series.provisioned.count == 41)
        #expect(series.provisioned.reduce(0, +) + series.failed.reduce(0, +) == records.count)
    }

    @Test(arguments: [
        (0, "0 ms"), (999, "999 ms"), (1000, "1.00 s"), (13_150, "13.15 s"), (59_994, "59.99 s"),
        (60_000, "1 min 00 s"), (125_499, "2 min 05 s"), (125_500, "2 min 06 s"), (-5, "-5 ms"),
        (Int.max, "153722867280912 min 56 s"),
    ])
    func durationsReadAsAPersonWouldSayThem(milliseconds: Int, shown: String) {
        #expect(ReportFormat.duration(milliseconds: milliseconds) == shown)
    }

    /// A database written by something else may hold absurd steps and times; the report still renders.
    @Test func absurdValuesDoNotTrap() {
        var records = ShiftRecords.records()
        records[0].steps = [
            RecordedStep(name: "scan", milliseconds: .max), RecordedStep(name: "connect", milliseconds: .min),
        ]
        records[1].finishedAt = Date(timeIntervalSince1970: 253_402_300_799)
        records[2].finishedAt = records[2].startedAt - 3600
        let page = HTMLShiftReport(scope: "", generatedAt: ShiftRecords.start) { _ in nil }.html(records)
        #expect(page.hasSuffix("</html>\n"))
        #expect(ShiftReport(records).throughput.provisioned.count <= 48)
    }

    @Test func noRecordsIsAnEmptyReport() {
        let empty = ShiftReport([])
        #expect(empty.attempts == 0)
        #expect(empty.yield == nil)
        #expect(empty.failures.isEmpty && empty.steps.isEmpty && empty.slowestUnits.isEmpty)
        #expect(empty.throughput.provisioned.isEmpty)
    }
}
