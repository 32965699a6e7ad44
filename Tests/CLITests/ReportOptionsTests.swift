import ArgumentParser
import Foundation
import Provisioning
import Records
import TestSupport
import Testing

@testable import ztprov

@Suite struct ReportOptionsTests {
    static let now = Date(timeIntervalSince1970: 1_714_550_400)

    @Test(arguments: [("30m", 1800.0), ("8h", 28800.0), ("2d", 172_800.0)])
    func spansCountBackFromNow(_ text: String, _ seconds: Double) throws {
        #expect(try ReportSince(text).start(now: Self.now) == Self.now.addingTimeInterval(-seconds))
    }

    @Test(arguments: [
        ("2024-05-01", 1_714_521_600.0), ("2024-05-01T08:00:00Z", 1_714_550_400.0),
        ("2024-05-01T08:00:00", 1_714_550_400.0), ("2024-05-01T10:00:00+02:00", 1_714_550_400.0),
        ("2024-05-01T08:00:00.500Z", 1_714_550_400.5),
    ])
    func datesAreUTCUnlessTheyCarryAnOffset(_ text: String, _ epoch: Double) throws {
        #expect(try ReportSince(text) == .instant(Date(timeIntervalSince1970: epoch)))
    }

    @Test(arguments: ["yesterday", "8", "5w", "-3h", "2024-13-01", ""])
    func otherTextIsRefused(_ text: String) {
        #expect(throws: ValidationError.self) { try ReportSince(text) }
    }

    @Test func parsesEveryOptionAndRefusesJSONLines() throws {
        let command = try ReportCommand.parse([
            "--format", "json", "--since", "2d", "--station", "line-2", "--final-only", "--db", "sqlite:/tmp/r.db",
        ])
        #expect(command.format == .json)
        #expect(command.station == "line-2")
        #expect(command.finalOnly)
        #expect(try command.records.location() == .sqlite(path: "/tmp/r.db"))
        #expect(throws: (any Error).self) { try ReportCommand.parse(["--format", "csv", "--json"]) }
        #expect(throws: (any Error).self) { try ReportCommand.parse([]) }
    }

    @Test func withoutDBTheEnvironmentDecides() throws {
        let options = try RecordStoreOptions.parse([])
        #expect(
            try options.location(environment: ["ZTPROV_DB": "postgres://db/line", "HOME": "/root"])
                == .postgres(url: "postgres://db/line"))
        #expect(
            try options.location(environment: ["HOME": "/home/op"])
                == .sqlite(path: "/home/op/.local/share/ztprov/records.sqlite"))
    }

    @Test func emptyAndUnknownLocationsAreUsageErrors() throws {
        for text in ["", "sqlite:", "SQLite:", "postgress://u:pw@h/db", "pg://h", "postgres:/h", "line:1.sqlite"] {
            let options = try RecordStoreOptions.parse(["--db", text])
            let error = #expect(throws: ProvisioningError.self) { try options.location(environment: [:]) }
            #expect(error?.code == .recordsInvalidLocation, "\(text)")
            #expect(error?.exitStatus == .usage)
            #expect(error?.message.contains("pw") == false)
        }
        let fromEnvironment = try RecordStoreOptions.parse([])
        let error = #expect(throws: ProvisioningError.self) {
            try fromEnvironment.location(environment: ["ZTPROV_DB": "sqlite:", "HOME": "/root"])
        }
        #expect(error?.message.contains("ZTPROV_DB") == true)
    }

    /// Random instants spelt every way `--since` takes them (seconds or not, a fraction, `Z`, an offset
    /// with or without a colon, `T` or a space) read back as the instant; any of them with trailing text
    /// is refused.
    @Test func sinceReadsEverySpellingOfADateTimeWholeAndNothingMore() throws {
        var random = SplitMix64(seed: 0x5117_CE00)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = .gmt
        // Each extra makes any spelling invalid (a digit or `:00` could lengthen a valid field, so none).
        let garbage = ["x", " ", "Zgarbage", "+", "+02:00x", ".", "T", "\u{0}", "\n", "日", "z1", "-"]
        for _ in 0..<400 {
            let minuteStart = Double(random.below(4_000_000_000) / 60 * 60)
            let second = random.chance(50) ? random.below(60) : 0
            let milliseconds = random.chance(30) ? random.below(1000) : 0
            let parts = utc.dateComponents(
                [.year, .month, .day, .hour, .minute], from: Date(timeIntervalSince1970: minuteStart))
            let offsetMinutes = random.chance(50) ? 0 : (random.below(24 * 60 * 2 - 1) - (24 * 60 - 1))
            var text =
                "\(String(format: "%04d", parts.year!))-\(String(format: "%02d", parts.month!))-\(String(format: "%02d", parts.day!))"
                + ["T", " ", "t"][random.below(3)]
                + "\(String(format: "%02d", parts.hour!)):\(String(format: "%02d", parts.minute!))"
            if second != 0 || milliseconds != 0 || random.chance(50) { text += ":\(String(format: "%02d", second))" }
            if milliseconds != 0 { text += ".\(String(format: "%03d", milliseconds))" }
            var expected = minuteStart + Double(second) + Double(milliseconds) / 1000
            if offsetMinutes == 0 {
                text += ["Z", "z", "", "+00:00"][random.below(4)]
            } else {
                // The text is the wall clock at that offset: the same instant, moved by the offset.
                let magnitude = abs(offsetMinutes)
                let offset =
                    (offsetMinutes < 0 ? "-" : "+") + String(format: "%02d", (magnitude / 60))
                    + (random.chance(50) ? ":" : "") + String(format: "%02d", (magnitude % 60))
                text += offset
                expected -= Double(offsetMinutes * 60)
            }
            let since = try ReportSince(text)
            guard case .instant(let date) = since else {
                Issue.record("\(text) read as \(since)")
                continue
            }
            #expect(abs(date.timeIntervalSince1970 - expected) < 0.0005, "\(text)")
            let extra = garbage[random.below(garbage.count)]
            #expect(throws: ValidationError.self, "\(text + extra)") { try ReportSince(text + extra) }
        }
    }

    @Test func sinceDatesMustExistAndSpansMustFit() throws {
        for text in [
            "2024-02-30", "2023-02-29", "2024-04-31", "2024-13-01", "2024-01-01T24:00:00Z", "99999999999999999d",
            "9223372036854775807m", "36601d", "1e3d", "-1h", "+1h", " 1h", "1 h",
        ] {
            #expect(throws: (any Error).self, "\(text)") { try ReportSince(text) }
        }
        for text in ["2024-02-29", "2024-12-31T23:59:59Z", "36600d", "0m"] {
            #expect(throws: Never.self, "\(text)") { try ReportSince(text) }
        }
    }
}
