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
    /// Set for the page `report --serve` shows; nil for the page `report --format html` writes.
    public var live: LivePage?

    public init(
        scope: String, generatedAt: Date, live: LivePage? = nil, hint: @escaping @Sendable (String) -> String?
    ) {
        self.scope = scope
        self.generatedAt = generatedAt
        self.live = live
        self.hint = hint
    }

    /// The whole page for `records`.
    public func html(_ records: [ProvisioningRecord]) -> String {
        let report = ShiftReport(records)
        var body = header()
        if records.isEmpty {
            body += "<p class=\"empty\" data-check=\"empty\">No provisioning records match this report.</p>"
        } else {
            body += summary(report) + (live.map { lineNow($0.activity) } ?? "") + yields(report) + pareto(report)
            body += throughput(report) + steps(report)
            body += security(report) + firmware(report) + slowest(report)
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8"/>
            <meta http-equiv="Content-Security-Policy" content="\(policy)"/>
            <meta name="viewport" content="width=device-width, initial-scale=1"/>
            <title>ztprov \(live == nil ? "shift report" : "line, live")</title>
            <style>\(HTMLShiftReportStyle.css)</style>\(liveHead)
            </head>
            <body\(live.map { " data-version=\"\($0.version)\"" } ?? "")>
            \(body)\(live == nil ? "" : "\n<script>\(LivePage.script)</script>")
            </body>
            </html>

            """
    }

    /// No script, no download; the live page's one script, and its requests to the server, by name.
    private var policy: String {
        guard live != nil else { return "default-src 'none'; style-src 'unsafe-inline'" }
        return "default-src 'none'; style-src 'unsafe-inline'; script-src '\(LivePage.scriptHash)'; connect-src 'self'"
    }

    /// The live page's reload without scripts; its script ends the body, which it reads.
    private var liveHead: String {
        guard let live else { return "" }
        return "\n<noscript><meta http-equiv=\"refresh\" content=\"\(live.refreshSeconds)\"/></noscript>"
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
        section("Yield per station", yieldTable(report.stations, kind: "station", heading: "Station"))
            + section(
                "Yield per adapter", yieldTable(report.adapters, kind: "adapter", heading: "Station / adapter"))
    }

    private func yieldTable(_ rows: [ShiftReport.YieldRow], kind: String, heading: String) -> String {
        table(
            "<th>\(heading)</th><th class=\"num\">Units</th><th class=\"num\">Provisioned</th>"
                + "<th class=\"num\">Attempts</th><th class=\"num\">First pass</th><th class=\"num\">Yield</th>"
                + "<th class=\"bar-cell\"></th>",
            rows.map { row in
                let key = "\(kind):\(HTMLText.shown(row.name))"
                let width = ((row.yield ?? 0) * 100).fixedPoint(fractionDigits: 1)
                return "<tr><td class=\"name\">\(HTMLText.shown(row.name))</td>"
                    + cell("\(row.settledUnits)", checked: "\(key):units")
                    + cell("\(row.provisionedUnits)", checked: "\(key):provisioned")
                    + cell("\(row.attempts)", checked: "\(key):attempts")
                    + cell(ReportFormat.percent(row.firstPassYield), checked: "\(key):first-pass")
                    + cell(ReportFormat.percent(row.yield), checked: "\(key):yield", class: "num strong")
                    + "<td class=\"bar-cell\"><div class=\"bar\"><div style=\"width:\(width)%\"></div></div></td></tr>"
            })
    }

    private func pareto(_ report: ShiftReport) -> String {
        guard !report.failures.isEmpty else {
            return section("Failures by error code", none("No attempt failed.", checked: "no-failures"))
        }
        let rows = report.failures.enumerated().map { index, row in
            let key = "pareto:\(index + 1)"
            return "<tr><td class=\"num\">\(index + 1)</td>"
                + cell(HTMLText.shown(row.code), checked: "\(key):code", class: "code")
                + cell("\(row.attempts)", checked: "\(key):attempts")
                + cell("\(row.lostUnits)", checked: "\(key):lost")
                + cell(ReportFormat.percent(row.cumulativeShare), checked: "\(key):cumulative")
                + cell(HTMLText.escaped(hint(row.code) ?? "Unknown code."), checked: "\(key):hint", class: "hint")
                + "</tr>"
        }
        return section(
            "Failures by error code",
            "<figure>\(SVGChart.pareto(report.failures))</figure>"
                + table(
                    "<th class=\"num\">#</th><th>Code</th><th class=\"num\">Failed attempts</th>"
                        + "<th class=\"num\">Units lost</th><th class=\"num\">Cumulative</th><th>What to do</th>", rows)
        )
    }

    private func throughput(_ report: ShiftReport) -> String {
        let series = report.throughput
        let peak = zip(series.provisioned, series.failed).map { $0 + $1 }.max() ?? 0
        return section(
            "Throughput over time",
            "<figure>\(SVGChart.throughput(series))"
                + "<figcaption><span class=\"key ok\"></span>provisioned <span class=\"key fail\"></span>failed, "
                + "attempts finished per <span data-check=\"slot\">\(ReportFormat.slot(seconds: series.slotSeconds))</span>"
                + " (busiest slot: <span data-check=\"peak-slot\">\(peak)</span>).</figcaption></figure>")
    }

    private func steps(_ report: ShiftReport) -> String {
        guard !report.steps.isEmpty else { return section("Step times", none("No step times recorded.")) }
        let rows = report.steps.map { step in
            let key = "step:\(HTMLText.shown(step.name))"
            let times = [("min", step.minimum), ("p50", step.median), ("p90", step.p90), ("max", step.maximum)].map {
                column, value in
                cell(ReportFormat.duration(milliseconds: value), checked: "\(key):\(column)")
            }
            return "<tr><td class=\"name\">\(HTMLText.shown(step.name))</td>"
                + cell("\(step.count)", checked: "\(key):runs") + times.joined() + "</tr>"
        }
        return section(
            "Step times",
            "<figure>\(SVGChart.stepTimes(report.steps))</figure>"
                + table(
                    "<th>Step</th><th class=\"num\">Runs</th><th class=\"num\">Fastest</th>"
                        + "<th class=\"num\">Median</th><th class=\"num\">90th percentile</th><th class=\"num\">Slowest</th>",
                    rows))
    }

    private func firmware(_ report: ShiftReport) -> String {
        guard !report.firmware.isEmpty else {
            return section("Firmware versions seen", none("No device reported a version."))
        }
        let rows = report.firmware.map { row in
            let key = "firmware:\(row.component):\(HTMLText.shown(row.version))"
            let yield = ShiftReport.share(row.provisionedUnits, of: row.settledUnits)
            return "<tr><td>\(row.component)</td><td class=\"code\">\(HTMLText.shown(row.version))</td>"
                + cell("\(row.attempts)", checked: "\(key):attempts")
                + cell("\(row.settledUnits)", checked: "\(key):units")
                + cell(ReportFormat.percent(yield), checked: "\(key):yield") + "</tr>"
        }
        return section(
            "Firmware versions seen",
            table(
                "<th>Component</th><th>Version</th><th class=\"num\">Attempts</th>"
                    + "<th class=\"num\">Units</th><th class=\"num\">Yield</th>", rows))
    }

    private func slowest(_ report: ShiftReport) -> String {
        let rows = report.slowestUnits.enumerated().map { index, unit in
            let key = "slowest:\(index + 1)"
            let step = unit.slowestStep.map {
                "\(HTMLText.shown($0.name)) \(ReportFormat.duration(milliseconds: $0.milliseconds))"
            }
            let outcome = unit.code == ProvisioningRecord.successCode ? "ok" : "fail"
            return "<tr><td class=\"num\">\(index + 1)</td>"
                + cell(HTMLText.shown(unit.deviceKey), checked: "\(key):unit", class: "name")
                + "<td class=\"code\">\(unit.deviceID.map(HTMLText.shown) ?? "\u{2013}")</td>"
                + "<td>\(HTMLText.shown(unit.station)) / \(HTMLText.shown(unit.adapter))</td>"
                + "<td class=\"num\">\(unit.attempts)</td>"
                + cell(ReportFormat.duration(milliseconds: unit.milliseconds), checked: "\(key):time")
                + "<td>\(step ?? "\u{2013}")</td><td class=\"code \(outcome)\">\(HTMLText.shown(unit.code))</td></tr>"
        }
        return section(
            "Slowest units",
            table(
                "<th class=\"num\">#</th><th>Unit</th><th>Device ID</th>"
                    + "<th>Station / adapter</th><th class=\"num\">Attempts</th><th class=\"num\">Time</th>"
                    + "<th>Slowest step</th><th>Result</th>", rows))
    }

    /// A section of the page under the heading `title`.
    func section(_ title: String, _ content: String) -> String {
        "<section><h2>\(title)</h2>\(content)</section>"
    }

    /// What a section says instead of its table when there is nothing to show.
    func none(_ sentence: String, checked check: String? = nil) -> String {
        "<p class=\"none\"\(check.map { " data-check=\"\($0)\"" } ?? "")>\(sentence)</p>"
    }

    /// A table with the header cells `head` and the rows `rows`, both already marked up.
    func table(_ head: String, _ rows: [String]) -> String {
        "<table><thead><tr>\(head)</tr></thead><tbody>\(rows.joined())</tbody></table>"
    }

    /// A cell showing `markup` that tests read off the page by its `check` name.
    func cell(_ markup: String, checked check: String, class kind: String = "num") -> String {
        "<td class=\"\(kind)\" data-check=\"\(check)\">\(markup)</td>"
    }
}
