import ArgumentParser
import Foundation
import Provisioning
import Records
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
