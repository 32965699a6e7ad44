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

    /// How the records file was left when the auditor reads it.
    enum Leftover: CaseIterable {
        /// Closed cleanly: no `-wal` or `-shm` file.
        case closed
        /// A writer has it open (side files present, recent records still in the `-wal` file).
        case writerActive
        /// Side files left by a writer that is gone, as after a crash.
        case sideFilesWithoutWriter
    }

    /// Every combination of leftover files, file mode (0444, 0644) and directory mode (root-owned 0755,
    /// 0555): the auditor, a plain user, reads every record, in a random format.
    @Test func anAuditorReadsEveryRecordHoweverTheFileWasLeft() async throws {
        var random = SplitMix64(seed: 0x0006_A0D1)
        for leftover in Leftover.allCases {
            for fileMode: mode_t in [0o444, 0o644] {
                for directoryMode: mode_t in [0o755, 0o555] {
                    let directory = try HostileRun.directory()
                    defer {
                        chmod(directory.path, 0o700)
                        try? FileManager.default.removeItem(at: directory)
                    }
                    chmod(directory.path, 0o755)
                    let path = directory.appending(path: "records.sqlite").path
                    let count = 1 + random.below(20)
                    var writer: SQLiteRecordStore? = try await SQLiteRecordStore(path: path)
                    for index in 1...count {
                        try await writer?.append(RecordSafetyEndToEndTests.record(name: "ZT_\(index)"))
                    }
                    switch leftover {
                    case .closed:
                        writer = nil
                        #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "\(leftover)")
                    case .writerActive:
                        break
                    case .sideFilesWithoutWriter:
                        // The files as a crash leaves them: copied while the writer had them open.
                        let copy = directory.appending(path: "crashed.sqlite").path
                        for suffix in ["", "-wal", "-shm"] {
                            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
                        }
                        writer = nil
                        try FileManager.default.removeItem(atPath: path)
                        try FileManager.default.moveItem(atPath: copy, toPath: path)
                        for suffix in ["-wal", "-shm"] {
                            try? FileManager.default.removeItem(atPath: path + suffix)
                            try FileManager.default.moveItem(atPath: copy + suffix, toPath: path + suffix)
                        }
                    }
                    for suffix in ["", "-wal", "-shm"] { chmod(path + suffix, fileMode) }
                    chmod(directory.path, directoryMode)
                    let format = ["csv", "json", "html"][random.below(3)]
                    var launch = ProcessLaunch(
                        "/usr/bin/setpriv",
                        [
                            "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups",
                            try ZTProvProcess.executable(), "report", "--format", format, "--db", path,
                        ])
                    launch.environment = HostileRun.noBus.merging(["HOME": "/nonexistent"]) { $1 }
                    launch.deadline = .seconds(20)
                    let outcome = try await launch.run()
                    let shown =
                        "\(leftover) file \(String(fileMode, radix: 8)) dir \(String(directoryMode, radix: 8)) \(format)"
                    #expect(outcome.exitStatus == 0, "\(shown): \(outcome)")
                    #expect(outcome.standardOutput.contains("ZT_\(count)"), "\(shown): \(outcome)")
                    withExtendedLifetime(writer) {}
                }
            }
        }
    }
}
