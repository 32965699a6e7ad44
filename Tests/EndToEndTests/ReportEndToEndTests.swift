import Foundation
import Records
import SQLiteRecordStore
import TestSupport
import Testing

/// `ztprov report` as the built binary, over an SQLite file the test wrote with the store.
@Suite struct ReportEndToEndTests {
    /// Two stations' attempts on 2024-05-01: a failure retried into a success, and another success.
    static func writeRecords(to path: String) async throws {
        let store = try await SQLiteRecordStore(path: path)
        let start = RecordStoreConformance.start
        var retried = RecordStoreConformance.record(
            "lamp-1", station: "line-1", code: "ble.link-lost", startedAt: start)
        retried.isFinal = false
        retried.message = "The BLE link dropped, \"twice\"."
        try await store.append(retried)
        try await store.append(RecordStoreConformance.record("lamp-1", station: "line-1", startedAt: start + 60))
        try await store.append(RecordStoreConformance.record("plug-7", station: "line-2", startedAt: start + 3600))
    }

    static func withDatabase(_ body: (String) async throws -> Void) async throws {
        let directory = try TemporaryDirectory("report")
        defer { directory.remove() }
        let path = directory.path + "/records.sqlite"
        try await writeRecords(to: path)
        try await body(path)
    }

    @Test func csvHasTheHeaderAndEveryAttemptOldestFirst() async throws {
        try await Self.withDatabase { path in
            let outcome = try await ZTProvProcess.run(["report", "--format", "csv", "--db", path])

            #expect(outcome.exitStatus == 0, "\(outcome)")
            let rows = outcome.standardOutput.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(rows.count == 4)
            #expect(rows.first?.hasPrefix("batch_id,station,adapter,device_key,") == true)
            #expect(rows[1].contains(",lamp-1,,,ble,,,1,false,ble.link-lost,\"The BLE link dropped, \"\"twice\"\".\","))
            #expect(rows[1].contains(",2024-05-01T08:00:00.125Z,2024-05-01T08:00:00.625Z,500,"))
            #expect(rows[3].hasPrefix("b1,line-2,hci0,plug-7,"))
            #expect(outcome.standardError.contains("Exported 3 attempt(s) from \(path)"))
        }
    }

    @Test func jsonLinesFilteredBySinceStationAndFinalOnly() async throws {
        try await Self.withDatabase { path in
            let since = try await ZTProvProcess.run(
                ["report", "--format", "json", "--since", "2024-05-01T08:30:00Z", "--db", "sqlite:" + path])
            #expect(since.exitStatus == 0, "\(since)")
            #expect(try Self.objects(since.standardOutput).map { $0["device_key"] as? String } == ["plug-7"])

            let station = try await ZTProvProcess.run(
                ["report", "--format", "json", "--station", "line-1", "--final-only", "--db", path])
            let objects = try Self.objects(station.standardOutput)
            #expect(objects.count == 1, "\(station)")
            #expect(objects.first?["code"] as? String == "ok")
            #expect(objects.first?["is_final"] as? Bool == true)

            let recent = try await ZTProvProcess.run(["report", "--format", "json", "--since", "2d", "--db", path])
            #expect(recent.exitStatus == 0)
            #expect(recent.standardOutput.isEmpty, "the records are from 2024")
        }
    }

    @Test func aDatabaseThatIsNotOneFailsWithExitStatus3AndAHint() async throws {
        let temporary = try TemporaryDirectory("report")
        defer { temporary.remove() }
        let directory = temporary.path
        let blocker = directory + "/not-a-directory"
        try "x".write(toFile: blocker, atomically: true, encoding: .utf8)
        let garbage = directory + "/garbage.sqlite"
        try String(repeating: "garbage ", count: 200).write(toFile: garbage, atomically: true, encoding: .utf8)

        let unreachable = try await ZTProvProcess.run([
            "report", "--format", "csv", "--db", blocker + "/records.sqlite",
        ])
        #expect(unreachable.exitStatus == 3, "\(unreachable)")
        #expect(unreachable.standardOutput.isEmpty)
        #expect(
            unreachable.standardError.contains(
                "error[records.unavailable]: Cannot open the records database \(blocker)/records.sqlite"))
        #expect(unreachable.standardError.contains("\nhint: Check that this user can create and write the file"))

        let missing = directory + "/typo.sqlite"
        let mistyped = try await ZTProvProcess.run(["report", "--format", "csv", "--db", missing])
        #expect(mistyped.exitStatus == 3, "\(mistyped)")
        #expect(mistyped.standardError.contains("error[records.unavailable]: "), "\(mistyped.standardError)")
        #expect(mistyped.standardError.contains("there is no file at \(missing)"))
        #expect(!FileManager.default.fileExists(atPath: missing), "report created a database")

        let foreign = try await ZTProvProcess.run(["report", "--format", "csv", "--db", garbage])
        #expect(foreign.exitStatus == 3, "\(foreign)")
        #expect(foreign.standardError.contains("error[records.incompatible-schema]: "))
    }

    @Test func aPostgresPasswordNeverReachesTheOutput() async throws {
        let outcome = try await ZTProvProcess.run(
            ["report", "--format", "csv", "--db", "postgres://line:Sup3r-Secret@127.0.0.1:1/ztprov"])
        #expect(outcome.exitStatus == 3, "\(outcome)")
        #expect(outcome.standardError.contains("error[records.unavailable]: "))
        #expect(outcome.standardError.contains("postgres://****@127.0.0.1:1/ztprov"))
        #expect(!outcome.standardError.contains("Sup3r-Secret"))
    }

    private static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }
}
