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
                "--since takes a date (2024-05-01), a date-time (2024-05-01T08:00Z, 2024-05-01 10:00:30+02:00) or "
                    + "a span of at most 100 years (30m, 8h, 2d).")
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

    /// `YYYY-MM-DD`, or that followed by `T` (or a space), `HH:MM`, optional `:SS` and fraction, and an
    /// optional `Z` or `±HH:MM` offset: read whole, each field checked, nothing left over. (Foundation's
    /// ISO 8601 parser rolls 2024-02-30 over into March, takes hour 25, stops before trailing text and
    /// needs seconds.)
    static func date(_ text: String) -> Date? {
        var reader = DateTimeReader(Array(text.utf8))
        guard let year = reader.digits(4), reader.skip("-"), let month = reader.digits(2), reader.skip("-"),
            let day = reader.digits(2), (1...12).contains(month), (1...daysIn(month, of: year)).contains(day)
        else { return nil }
        var seconds = Double(daysSinceEpoch(year: year, month: month, day: day) * 86_400)
        guard !reader.isAtEnd else { return Date(timeIntervalSince1970: seconds) }
        guard reader.skip("T") || reader.skip("t") || reader.skip(" "), let hour = reader.digits(2), hour < 24,
            reader.skip(":"), let minute = reader.digits(2), minute < 60
        else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if reader.skip(":") {
            guard let second = reader.digits(2), second < 60 else { return nil }
            seconds += Double(second)
            if reader.skip(".") || reader.skip(",") {
                guard let fraction = reader.fraction() else { return nil }
                seconds += fraction
            }
        }
        if reader.skip("Z") || reader.skip("z") {
        } else if let sign = reader.sign() {
            guard let hours = reader.digits(2), hours < 24 else { return nil }
            _ = reader.skip(":")
            guard let minutes = reader.digits(2), minutes < 60 else { return nil }
            seconds -= Double(sign * (hours * 3600 + minutes * 60))
        }
        return reader.isAtEnd ? Date(timeIntervalSince1970: seconds) : nil
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar (H. Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// Reads a date-time's ASCII fields front to back.
private struct DateTimeReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    /// Consumes `character` when it comes next.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// Exactly `count` ASCII digits as a number.
    mutating func digits(_ count: Int) -> Int? {
        guard index + count <= bytes.count, bytes[index..<index + count].allSatisfy(Self.isDigit) else { return nil }
        defer { index += count }
        return bytes[index..<index + count].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// One to nine digits after the decimal mark, as a fraction of a second.
    mutating func fraction() -> Double? {
        let run = bytes[index...].prefix(while: Self.isDigit)
        guard (1...9).contains(run.count) else { return nil }
        index += run.count
        return Double(run.reduce(0) { $0 * 10 + Int($1 - 0x30) }) / Double((0..<run.count).reduce(1) { x, _ in x * 10 })
    }

    /// +1 or -1 for an offset's sign.
    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
