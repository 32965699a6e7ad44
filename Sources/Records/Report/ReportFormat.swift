public import FoundationEssentials
import StringEssentials

/// How the shift report spells numbers, shares, durations and instants.
public enum ReportFormat {
    /// `93.8%`, or `–` when there is nothing to divide by.
    public static func percent(_ share: Double?) -> String {
        guard let share else { return "\u{2013}" }
        return (share * 100).fixedPoint(fractionDigits: 1) + "%"
    }

    /// `412 ms` below a second, `1.25 s` up to a minute, `2 min 05 s` beyond.
    public static func duration(milliseconds: Int) -> String {
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds < 60_000 { return (Double(milliseconds) / 1000).fixedPoint(fractionDigits: 2) + " s" }
        let seconds = milliseconds / 1000 + (milliseconds % 1000 >= 500 ? 1 : 0)
        return "\(seconds / 60) min " + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60) s"
    }

    /// `2024-05-01 08:30 UTC`: the report's clock is UTC, like the exports.
    public static func minute(_ date: Date) -> String {
        let parts = utc.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let day = [parts.year ?? 0, parts.month ?? 0, parts.day ?? 0].enumerated()
            .map { $1.zeroPadded(width: $0 == 0 ? 4 : 2) }.joined(separator: "-")
        return day + " " + clock(parts) + " UTC"
    }

    /// `08:30`: a time of day in UTC, for chart axes.
    static func clock(_ date: Date) -> String {
        clock(utc.dateComponents([.hour, .minute], from: date))
    }

    private static func clock(_ parts: DateComponents) -> String {
        (parts.hour ?? 0).zeroPadded(width: 2) + ":" + (parts.minute ?? 0).zeroPadded(width: 2)
    }

    /// `5 min`, `1 h`, `1 d`: a throughput slot's length.
    static func slot(seconds: Int) -> String {
        if seconds % 86_400 == 0 { return "\(seconds / 86_400) d" }
        if seconds % 3600 == 0 { return "\(seconds / 3600) h" }
        if seconds % 60 == 0 { return "\(seconds / 60) min" }
        return "\(seconds) s"
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()
}
