import Foundation
import SQLiteRecordStore
import TestSupport
import Testing

/// `ztprov report` for an auditor who may only read: run as an unprivileged user against a records file
/// that user cannot write, in a directory it cannot write, so the kernel itself proves no write happens.
@Suite(.enabled(if: getuid() == 0, "needs root to run the report as another user"))
struct ReadOnlyAuditorEndToEndTests {
    static let nobody = "65534"

    @Test func anAuditorWithoutWriteAccessGetsTheReportAndChangesNothing() async throws {
        let directory = try HostileRun.directory()
        defer {
            chmod(directory.path, 0o700)
            try? FileManager.default.removeItem(at: directory)
        }
        let path = directory.appending(path: "records.sqlite").path
        let store = try await SQLiteRecordStore(path: path)
        for index in 1...3 { try await store.append(RecordSafetyEndToEndTests.record(name: "ZT_\(index)")) }
        try await RecordSafetyEndToEndTests.sqlite(path, "PRAGMA wal_checkpoint(TRUNCATE);")
        chmod(path, 0o444)
        chmod(directory.path, 0o555)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let bytes = try Data(contentsOf: URL(filePath: path))

        for format in ["csv", "json", "html"] {
            var launch = ProcessLaunch(
                "/usr/bin/setpriv",
                [
                    "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups",
                    try ZTProvProcess.executable(),
                    "report", "--format", format, "--db", path,
                ])
            launch.environment = HostileRun.noBus.merging(["HOME": "/nonexistent"]) { $1 }
            launch.deadline = .seconds(20)
            let outcome = try await launch.run()
            #expect(outcome.exitStatus == 0, "\(format): \(outcome)")
            #expect(outcome.standardOutput.contains("ZT_3"), "\(format): \(outcome)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)
        #expect(try Data(contentsOf: URL(filePath: path)) == bytes)
    }
}
