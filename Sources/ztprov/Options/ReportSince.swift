import ArgumentParser
import Foundation

/// `--since`: an ISO 8601 date or date-time, or a span back from now (`30m`, `8h`, `2d`).
///
/// A date alone is midnight UTC and a date-time without an offset is UTC, like the report's own
/// timestamps, so the same text selects the same records on every station.
enum ReportSince: Equatable {
    case instant(Date)
    case ago(Duration)

    init(_ text: String) throws {
        if let span = Self.span(text) {
            self = .ago(span)
        } else if let date = Self.date(text) {
            self = .instant(date)
        } else {
            throw ValidationError(
                "--since takes a date (2024-05-01), a date-time (2024-05-01T08:00:00Z) or a span of at most 100 years "
                    + "(30m, 8h, 2d).")
        }
    }

    /// The instant the report starts at, for a run at `now`.
    func start(now: Date) -> Date {
        switch self {
        case .instant(let date): date
        case .ago(let span): now.addingTimeInterval(-Double(span.components.seconds))
        }
    }

    /// The longest span taken: a century reaches back before any record, and keeps the arithmetic
    /// far from overflow.
    static let longestSpan: Duration = .seconds(100 * 366 * 86_400)

    private static func span(_ text: String) -> Duration? {
        let digits = text.dropLast()
        guard let unit = text.last, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let count = Int(digits)
        else { return nil }
        let unitSeconds: Int? =
            switch unit {
            case "m": 60
            case "h": 3600
            case "d": 86400
            default: nil
            }
        guard let unitSeconds else { return nil }
        let (seconds, overflow) = count.multipliedReportingOverflow(by: unitSeconds)
        guard !overflow, Duration.seconds(seconds) <= longestSpan else { return nil }
        return .seconds(seconds)
    }

    private static func date(_ text: String) -> Date? {
        let dateOnly = Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day()
        if text.count == 10, let date = try? dateOnly.parse(text) { return date }
        let hasOffset = text.hasSuffix("Z") || text.dropFirst(10).contains("+") || text.dropFirst(10).contains("-")
        let zoned = hasOffset ? text : text + "Z"
        for fractional in [false, true] {
            let style = Date.ISO8601FormatStyle(includingFractionalSeconds: fractional)
            if let date = try? style.parse(zoned) { return date }
        }
        return nil
    }
}
