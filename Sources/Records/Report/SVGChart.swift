import FoundationEssentials

/// The shift report's charts as inline SVG: drawn on the host, so the page needs no script, no font or
/// image download, and prints as sharp as it shows.
enum SVGChart {
    static let okColour = "#2e7d32"
    static let failColour = "#c62828"
    static let accentColour = "#1565c0"
    static let lightAccentColour = "#90caf9"
    static let gridColour = "#d0d4da"
    static let inkColour = "#37474f"

    /// Failed attempts per code as bars, most frequent first, with the cumulative share as a line.
    static func pareto(_ rows: [ShiftReport.FailureRow]) -> String {
        let shown = Array(rows.prefix(12))
        let width = 720.0
        let height = 280.0
        let left = 44.0
        let right = 48.0
        let top = 14.0
        let bottom = 96.0
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        let peak = Double(shown.map(\.attempts).max() ?? 1)
        let slot = plotWidth / Double(max(shown.count, 1))
        var svg = open(width: width, height: height, label: "Failed attempts by error code, most frequent first")
        svg += axes(left: left, top: top, width: plotWidth, height: plotHeight)
        svg += text(left - 6, top + 4, "\(Int(peak))", anchor: "end")
        svg += text(left - 6, top + plotHeight, "0", anchor: "end")
        svg += text(left + plotWidth + 6, top + 4, "100%", anchor: "start")
        svg += text(left + plotWidth + 6, top + plotHeight, "0%", anchor: "start")
        var points: [String] = []
        for (index, row) in shown.enumerated() {
            let barHeight = plotHeight * Double(row.attempts) / peak
            let x = left + slot * Double(index)
            let barWidth = min(slot * 0.7, 64)
            svg += rect(x + (slot - barWidth) / 2, top + plotHeight - barHeight, barWidth, barHeight, failColour)
            svg += text(x + slot / 2, top + plotHeight - barHeight - 4, "\(row.attempts)", anchor: "middle")
            let labelX = x + slot / 2
            let labelY = top + plotHeight + 12
            svg +=
                "<text x=\"\(number(labelX))\" y=\"\(number(labelY))\" text-anchor=\"end\" "
                + "transform=\"rotate(-35 \(number(labelX)) \(number(labelY)))\">"
                + HTMLText.escaped(String(row.code.prefix(28))) + "</text>"
            points.append("\(number(labelX)),\(number(top + plotHeight * (1 - row.cumulativeShare)))")
        }
        svg +=
            "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(inkColour)\" "
            + "stroke-width=\"2\"/>"
        for point in points {
            let xy = point.split(separator: ",")
            svg += "<circle cx=\"\(xy[0])\" cy=\"\(xy[1])\" r=\"3\" fill=\"\(inkColour)\"/>"
        }
        return svg + "</svg>"
    }

    /// Provisioned and failed attempts per slot as stacked columns.
    static func throughput(_ series: ShiftReport.Throughput) -> String {
        let width = 720.0
        let height = 230.0
        let left = 44.0
        let top = 14.0
        let bottom = 36.0
        let plotWidth = width - left - 12
        let plotHeight = height - top - bottom
        let totals = zip(series.provisioned, series.failed).map { $0 + $1 }
        let peak = Double(max(totals.max() ?? 1, 1))
        let count = max(series.provisioned.count, 1)
        let slot = plotWidth / Double(count)
        var svg = open(width: width, height: height, label: "Attempts finished per time slot, provisioned and failed")
        svg += axes(left: left, top: top, width: plotWidth, height: plotHeight)
        svg += text(left - 6, top + 4, "\(Int(peak))", anchor: "end")
        svg += text(left - 6, top + plotHeight, "0", anchor: "end")
        let labelEvery = max(1, Int((Double(count) / 8).rounded(.up)))
        for index in 0..<series.provisioned.count {
            let x = left + slot * Double(index) + slot * 0.1
            let okHeight = plotHeight * Double(series.provisioned[index]) / peak
            let failHeight = plotHeight * Double(series.failed[index]) / peak
            svg += rect(x, top + plotHeight - okHeight, slot * 0.8, okHeight, okColour)
            svg += rect(x, top + plotHeight - okHeight - failHeight, slot * 0.8, failHeight, failColour)
            if index % labelEvery == 0 {
                let instant = series.start.addingTimeInterval(Double(series.slotSeconds * index))
                svg += text(
                    left + slot * Double(index), top + plotHeight + 16, ReportFormat.clock(instant), anchor: "start")
            }
        }
        return svg + "</svg>"
    }

    /// Each step's durations: a bar to the median, a lighter one on to the 90th percentile, a line on
    /// to the maximum (cut at the edge when an outlier would squash the rest).
    static func stepTimes(_ steps: [ShiftReport.StepTimes]) -> String {
        let rowHeight = 26.0
        let width = 720.0
        let left = 110.0
        let right = 170.0
        let height = rowHeight * Double(steps.count) + 26
        let plotWidth = width - left - right
        let scale = Double(max(steps.map(\.p90).max() ?? 1, 1)) * 1.3
        func x(_ milliseconds: Int) -> Double { left + plotWidth * min(max(Double(milliseconds) / scale, 0), 1) }
        var svg = open(width: width, height: height, label: "Step durations: median, 90th percentile and maximum")
        for (index, step) in steps.enumerated() {
            let y = 6 + rowHeight * Double(index)
            let middle = y + rowHeight / 2 - 3
            svg += text(left - 8, middle + 4, String(step.name.prefix(16)), anchor: "end")
            svg +=
                "<line x1=\"\(number(x(step.p90)))\" y1=\"\(number(middle))\" x2=\"\(number(x(step.maximum)))\" "
                + "y2=\"\(number(middle))\" stroke=\"\(inkColour)\" stroke-width=\"1.5\"/>"
            svg += rect(left, y + 4, x(step.p90) - left, rowHeight - 14, lightAccentColour)
            svg += rect(left, y + 4, x(step.median) - left, rowHeight - 14, accentColour)
            svg += text(
                left + plotWidth + 10, middle + 4,
                "\(ReportFormat.duration(milliseconds: step.median)) · \(ReportFormat.duration(milliseconds: step.p90))",
                anchor: "start")
        }
        let axisY = 6 + rowHeight * Double(steps.count)
        svg +=
            "<line x1=\"\(number(left))\" y1=\"\(number(axisY))\" x2=\"\(number(left + plotWidth))\" "
            + "y2=\"\(number(axisY))\" stroke=\"\(gridColour)\"/>"
        svg += text(left, axisY + 14, "0", anchor: "start")
        svg += text(
            left + plotWidth, axisY + 14, ReportFormat.duration(milliseconds: Int(min(scale, 9e18))), anchor: "end")
        svg += text(left + plotWidth + 10, axisY + 14, "median · p90", anchor: "start")
        return svg + "</svg>"
    }

    private static func open(width: Double, height: Double, label: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(number(width)) \(number(height))\" role=\"img\" "
            + "aria-label=\"\(HTMLText.escaped(label))\"><title>\(HTMLText.escaped(label))</title>"
    }

    private static func axes(left: Double, top: Double, width: Double, height: Double) -> String {
        "<path d=\"M\(number(left)) \(number(top))V\(number(top + height))H\(number(left + width))\" "
            + "fill=\"none\" stroke=\"\(gridColour)\"/>"
    }

    private static func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double, _ colour: String) -> String {
        guard height > 0, width > 0 else { return "" }
        return "<rect x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(width))\" height=\"\(number(height))\" "
            + "fill=\"\(colour)\"/>"
    }

    private static func text(_ x: Double, _ y: Double, _ content: String, anchor: String) -> String {
        "<text x=\"\(number(x))\" y=\"\(number(y))\" text-anchor=\"\(anchor)\">\(HTMLText.escaped(content))</text>"
    }

    /// A coordinate with at most one decimal, so the SVG stays small; held within a range no chart
    /// reaches, so a record with impossible numbers draws off the chart instead of stopping the report.
    private static func number(_ value: Double) -> String {
        let tenths = (min(max(value.isNaN ? 0 : value, -1e6), 1e6) * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }
}
