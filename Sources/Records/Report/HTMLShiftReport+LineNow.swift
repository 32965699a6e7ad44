import StringEssentials

extension HTMLShiftReport {
    /// The live page's sections about the line now: units in progress, stations gone quiet, units per hour
    /// and the yield of each station hour by hour.
    func lineNow(_ activity: LineActivity) -> String {
        inProgress(activity) + quiet(activity) + rates(activity) + hourly(activity)
    }

    private func inProgress(_ activity: LineActivity) -> String {
        let count =
            "<p>Units in progress: <span class=\"strong\" data-check=\"in-progress\">"
            + "\(activity.unitsInProgress.count)</span></p>"
        guard !activity.unitsInProgress.isEmpty else { return section("Units in progress", count) }
        let rows = activity.unitsInProgress.enumerated().map { index, unit in
            "<tr>" + cell(HTMLText.shown(unit.deviceKey), checked: "in-progress:\(index + 1):unit", class: "name")
                + "<td>\(HTMLText.shown(unit.station)) / \(HTMLText.shown(unit.adapter))</td>"
                + "<td class=\"num\">\(unit.attempts)</td>"
                + "<td class=\"code fail\">\(HTMLText.shown(unit.code))</td></tr>"
        }
        return section(
            "Units in progress",
            count
                + table(
                    "<th>Unit</th><th>Station / adapter</th><th class=\"num\">Attempts</th><th>Latest result</th>",
                    rows))
    }

    private func quiet(_ activity: LineActivity) -> String {
        guard !activity.quietStations.isEmpty else {
            return section("Stations gone quiet", none("Every station recorded recently.", checked: "no-quiet"))
        }
        let rows = activity.quietStations.map { quiet in
            "<tr>"
                + cell(HTMLText.shown(quiet.station), checked: "quiet:\(HTMLText.shown(quiet.station))", class: "name")
                + "<td>\(ReportFormat.minute(quiet.lastRecord))</td></tr>"
        }
        return section("Stations gone quiet", table("<th>Station</th><th>Latest record</th>", rows))
    }

    private func rates(_ activity: LineActivity) -> String {
        let rows = activity.rates.map { rate in
            let key = "rate:\(HTMLText.shown(rate.name))"
            return "<tr><td class=\"name\">\(HTMLText.shown(rate.name))</td>"
                + cell("\(rate.provisionedUnits)", checked: "\(key):provisioned")
                + cell(rate.perHour.map { $0.fixedPoint(fractionDigits: 1) } ?? "\u{2013}", checked: "\(key):per-hour")
                + "</tr>"
        }
        return section(
            "Throughput per station",
            table("<th>Station</th><th class=\"num\">Provisioned</th><th class=\"num\">Units per hour</th>", rows))
    }

    private func hourly(_ activity: LineActivity) -> String {
        guard !activity.hourlyYields.isEmpty else {
            return section("Yield per station and hour", none("No unit settled yet."))
        }
        let rows = activity.hourlyYields.map { row in
            let key = "hour:\(HTMLText.shown(row.station)):\(ReportFormat.clock(row.hour))"
            return "<tr><td class=\"name\">\(HTMLText.shown(row.station))</td>"
                + "<td>\(ReportFormat.minute(row.hour))</td>"
                + cell("\(row.settledUnits)", checked: "\(key):units")
                + cell("\(row.provisionedUnits)", checked: "\(key):provisioned")
                + cell(ReportFormat.percent(row.yield), checked: "\(key):yield", class: "num strong") + "</tr>"
        }
        return section(
            "Yield per station and hour",
            table(
                "<th>Station</th><th>Hour</th><th class=\"num\">Units</th><th class=\"num\">Provisioned</th>"
                    + "<th class=\"num\">Yield</th>", rows))
    }
}
