public import FoundationEssentials
import StringEssentials

/// `ztprov report --format html`: a shift's records as one self-contained page for the people who run
/// the line.
///
/// Everything is inline (styles, SVG charts) and the page runs no script, so it opens offline, can be
/// mailed or archived as one file, and prints. Its content security policy forbids scripts and every
/// download, so even a value that slipped past escaping could not run or fetch anything. Numbers carry
/// a `data-check` name so tests can read them off the rendered page.
public struct HTMLShiftReport: Sendable {
    /// What the page is about: the filters and the database, said in words.
    public var scope: String
    public var generatedAt: Date
    /// The general hint for an error code, from the error catalogue; nil for a code it does not know.
    public var hint: @Sendable (String) -> String?

    public init(scope: String, generatedAt: Date, hint: @escaping @Sendable (String) -> String?) {
        self.scope = scope
        self.generatedAt = generatedAt
        self.hint = hint
    }

    /// The whole page for `records`.
    public func html(_ records: [ProvisioningRecord]) -> String {
        let report = ShiftReport(records)
        var body = header()
        if records.isEmpty {
            body += "<p class=\"empty\" data-check=\"empty\">No provisioning records match this report.</p>"
        } else {
            body += summary(report) + yields(report) + pareto(report) + throughput(report) + steps(report)
            body += firmware(report) + slowest(report)
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8"/>
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>ztprov shift report</title>
            <style>\(HTMLShiftReportStyle.css)</style>
            </head>
            <body>
            \(body)
            </body>
            </html>

            """
    }

    private func header() -> String {
        "<header><h1>Shift report</h1><p class=\"scope\">\(HTMLText.shown(scope))</p>"
            + "<p class=\"generated\">Generated \(ReportFormat.minute(generatedAt)) by ztprov</p></header>"
    }

    private func summary(_ report: ShiftReport) -> String {
        let hours = report.firstStart.flatMap { start in
            report.lastFinish.map { $0.timeIntervalSince(start) / 3600 }
        }
        let rate = hours.flatMap { $0 > 0 ? (Double(report.provisionedUnits) / $0).fixedPoint(fractionDigits: 1) : nil }
        let tiles = [
            ("Yield", ReportFormat.percent(report.yield), "yield"),
            ("Units provisioned", "\(report.provisionedUnits)", "provisioned"),
            ("Units settled", "\(report.settledUnits)", "settled"),
            ("Attempts", "\(report.attempts)", "attempts"),
            ("Failed attempts", "\(report.failedAttempts)", "failed-attempts"),
            ("Units per hour", rate ?? "\u{2013}", "rate"),
        ]
        var html = "<section class=\"tiles\">"
        for (label, value, check) in tiles {
            html += "<div class=\"tile\"><span class=\"value\" data-check=\"\(check)\">\(value)</span>"
            html += "<span class=\"label\">\(label)</span></div>"
        }
        html += "</section>"
        if let start = report.firstStart, let end = report.lastFinish {
            html += "<p class=\"period\">From \(ReportFormat.minute(start)) to \(ReportFormat.minute(end)).</p>"
        }
        return html
    }

    private func yields(_ report: ShiftReport) -> String {
        "<section><h2>Yield per station</h2>" + yieldTable(report.stations, kind: "station", heading: "Station")
            + "</section><section><h2>Yield per adapter</h2>"
            + yieldTable(report.adapters, kind: "adapter", heading: "Station / adapter") + "</section>"
    }

    private func yieldTable(_ rows: [ShiftReport.YieldRow], kind: String, heading: String) -> String {
        var html =
            "<table><thead><tr><th>\(heading)</th><th class=\"num\">Units</th><th class=\"num\">Provisioned</th>"
            + "<th class=\"num\">Attempts</th><th class=\"num\">First pass</th><th class=\"num\">Yield</th>"
            + "<th class=\"bar-cell\"></th></tr></thead><tbody>"
        for row in rows {
            let key = "\(kind):\(HTMLText.escaped(row.name))"
            let width = ((row.yield ?? 0) * 100).fixedPoint(fractionDigits: 1)
            html += "<tr><td class=\"name\">\(HTMLText.shown(row.name))</td>"
            html += "<td class=\"num\" data-check=\"\(key):units\">\(row.settledUnits)</td>"
            html += "<td class=\"num\" data-check=\"\(key):provisioned\">\(row.provisionedUnits)</td>"
            html += "<td class=\"num\" data-check=\"\(key):attempts\">\(row.attempts)</td>"
            html +=
                "<td class=\"num\" data-check=\"\(key):first-pass\">\(ReportFormat.percent(row.firstPassYield))</td>"
            html += "<td class=\"num strong\" data-check=\"\(key):yield\">\(ReportFormat.percent(row.yield))</td>"
            html += "<td class=\"bar-cell\"><div class=\"bar\"><div style=\"width:\(width)%\"></div></div></td></tr>"
        }
        return html + "</tbody></table>"
    }

    private func pareto(_ report: ShiftReport) -> String {
        var html = "<section><h2>Failures by error code</h2>"
        guard !report.failures.isEmpty else {
            return html + "<p class=\"none\" data-check=\"no-failures\">No attempt failed.</p></section>"
        }
        html += "<figure>\(SVGChart.pareto(report.failures))</figure>"
        html +=
            "<table><thead><tr><th class=\"num\">#</th><th>Code</th><th class=\"num\">Failed attempts</th>"
            + "<th class=\"num\">Units lost</th><th class=\"num\">Cumulative</th><th>What to do</th></tr></thead><tbody>"
        for (index, row) in report.failures.enumerated() {
            let key = "pareto:\(index + 1)"
            html += "<tr><td class=\"num\">\(index + 1)</td>"
            html += "<td class=\"code\" data-check=\"\(key):code\">\(HTMLText.shown(row.code))</td>"
            html += "<td class=\"num\" data-check=\"\(key):attempts\">\(row.attempts)</td>"
            html += "<td class=\"num\" data-check=\"\(key):lost\">\(row.lostUnits)</td>"
            html +=
                "<td class=\"num\" data-check=\"\(key):cumulative\">\(ReportFormat.percent(row.cumulativeShare))</td>"
            html +=
                "<td class=\"hint\" data-check=\"\(key):hint\">\(HTMLText.escaped(hint(row.code) ?? "Unknown code."))</td></tr>"
        }
        return html + "</tbody></table></section>"
    }

    private func throughput(_ report: ShiftReport) -> String {
        let series = report.throughput
        let peak = zip(series.provisioned, series.failed).map { $0 + $1 }.max() ?? 0
        return "<section><h2>Throughput over time</h2><figure>\(SVGChart.throughput(series))"
            + "<figcaption><span class=\"key ok\"></span>provisioned <span class=\"key fail\"></span>failed, "
            + "attempts finished per <span data-check=\"slot\">\(ReportFormat.slot(seconds: series.slotSeconds))</span>"
            + " (busiest slot: <span data-check=\"peak-slot\">\(peak)</span>).</figcaption></figure></section>"
    }

    private func steps(_ report: ShiftReport) -> String {
        var html = "<section><h2>Step times</h2>"
        guard !report.steps.isEmpty else { return html + "<p class=\"none\">No step times recorded.</p></section>" }
        html += "<figure>\(SVGChart.stepTimes(report.steps))</figure>"
        html +=
            "<table><thead><tr><th>Step</th><th class=\"num\">Runs</th><th class=\"num\">Fastest</th>"
            + "<th class=\"num\">Median</th><th class=\"num\">90th percentile</th><th class=\"num\">Slowest</th>"
            + "</tr></thead><tbody>"
        for step in report.steps {
            let key = "step:\(HTMLText.escaped(step.name))"
            html += "<tr><td class=\"name\">\(HTMLText.shown(step.name))</td>"
            html += "<td class=\"num\" data-check=\"\(key):runs\">\(step.count)</td>"
            for (column, value) in [
                ("min", step.minimum), ("p50", step.median), ("p90", step.p90), ("max", step.maximum),
            ] {
                html +=
                    "<td class=\"num\" data-check=\"\(key):\(column)\">\(ReportFormat.duration(milliseconds: value))</td>"
            }
            html += "</tr>"
        }
        return html + "</tbody></table></section>"
    }

    private func firmware(_ report: ShiftReport) -> String {
        var html = "<section><h2>Firmware versions seen</h2>"
        guard !report.firmware.isEmpty else {
            return html + "<p class=\"none\">No device reported a version.</p></section>"
        }
        html +=
            "<table><thead><tr><th>Component</th><th>Version</th><th class=\"num\">Attempts</th>"
            + "<th class=\"num\">Units</th><th class=\"num\">Yield</th></tr></thead><tbody>"
        for row in report.firmware {
            let key = "firmware:\(row.component):\(HTMLText.escaped(row.version))"
            html += "<tr><td>\(row.component)</td><td class=\"code\">\(HTMLText.shown(row.version))</td>"
            html += "<td class=\"num\" data-check=\"\(key):attempts\">\(row.attempts)</td>"
            html += "<td class=\"num\" data-check=\"\(key):units\">\(row.settledUnits)</td>"
            html += "<td class=\"num\" data-check=\"\(key):yield\">"
            html += "\(ReportFormat.percent(ShiftReport.share(row.provisionedUnits, of: row.settledUnits)))</td></tr>"
        }
        return html + "</tbody></table></section>"
    }

    private func slowest(_ report: ShiftReport) -> String {
        var html =
            "<section><h2>Slowest units</h2><table><thead><tr><th class=\"num\">#</th><th>Unit</th><th>Device ID</th>"
            + "<th>Station / adapter</th><th class=\"num\">Attempts</th><th class=\"num\">Time</th>"
            + "<th>Slowest step</th><th>Result</th></tr></thead><tbody>"
        for (index, unit) in report.slowestUnits.enumerated() {
            let key = "slowest:\(index + 1)"
            let step = unit.slowestStep.map {
                "\(HTMLText.shown($0.name)) \(ReportFormat.duration(milliseconds: $0.milliseconds))"
            }
            html += "<tr><td class=\"num\">\(index + 1)</td>"
            html += "<td class=\"name\" data-check=\"\(key):unit\">\(HTMLText.shown(unit.deviceKey))</td>"
            html += "<td class=\"code\">\(unit.deviceID.map(HTMLText.shown) ?? "\u{2013}")</td>"
            html += "<td>\(HTMLText.shown(unit.station)) / \(HTMLText.shown(unit.adapter))</td>"
            html += "<td class=\"num\">\(unit.attempts)</td>"
            html +=
                "<td class=\"num\" data-check=\"\(key):time\">\(ReportFormat.duration(milliseconds: unit.milliseconds))</td>"
            html += "<td>\(step ?? "\u{2013}")</td>"
            let outcome = unit.code == ProvisioningRecord.successCode ? "ok" : "fail"
            html += "<td class=\"code \(outcome)\">\(HTMLText.shown(unit.code))</td></tr>"
        }
        return html + "</tbody></table></section>"
    }
}
