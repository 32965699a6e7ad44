import ArgumentParser
import FoundationEssentials

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

    /// True when `text` starts with `YYYY-MM-DD` naming a real day and any `THH:MM[:SS]` that follows
    /// is a real time of day.
    static func fieldsExist(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ (0x30...0x39).contains($0) }) else {
                return nil
            }
            return bytes[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), (1...12).contains(month)
        else { return false }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return false }
        guard bytes.count > 10 else { return true }
        guard let hour = number(11..<13), let minute = number(14..<16), hour < 24, minute < 60 else { return false }
        guard bytes.count > 16, bytes[16] == UInt8(ascii: ":") else { return true }
        guard let second = number(17..<19), second < 60 else { return false }
        return true
    }

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
        // The parser rolls 2024-02-30 over into March and takes hour 25; a date must exist as written.
        guard fieldsExist(text) else { return nil }
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
