import Foundation
import Glibc
import SQLiteRecordStore
import TestSupport
import Testing

/// Output that cannot be written fails the command, with a message, whatever stdout is.
@Suite struct OutputFailureEndToEndTests {
    /// Where stdout goes in one run.
    enum Sink: CaseIterable {
        /// `> /dev/full`: every write fails with ENOSPC.
        case full
        /// A pipe whose reader is gone: every write fails with EPIPE (SIGPIPE must not kill silently).
        case closedPipe
    }

    @Test(arguments: Sink.allCases)
    func aLostStdoutNeverExitsZero(_ sink: Sink) async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "ztprov-output-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let records = directory.appending(path: "records.sqlite").path
        let store = try await SQLiteRecordStore(path: records)
        for index in 0..<50 { try await store.append(RecordSafetyEndToEndTests.record(name: "unit-\(index)")) }
        for arguments in [
            ["--version"], ["--help"], ["report", "--help"], ["report", "--format", "csv", "--db", records],
            ["report", "--format", "json", "--db", records], ["demo", "--json"],
        ] {
            let (status, standardError) = try await onOwnThread { try Self.run(arguments, stdout: sink) }
            #expect(status == 3, "\(arguments) to \(sink): exit \(status), \(standardError)")
            #expect(standardError.contains("error[host.output-failed]"), "\(arguments): \(standardError)")
        }
    }

    /// Runs ztprov with stdout on `sink`; returns the exit status (128+N for signal N) and stderr. It blocks
    /// until ztprov exits, so callers run it on a thread of their own (``onOwnThread(_:)``).
    static func run(_ arguments: [String], stdout sink: Sink) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(filePath: try ZTProvProcess.executable())
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(HostileRun.noBus) { _, new in new }
        let errors = Pipe()
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        switch sink {
        case .full:
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
            try process.run()
        case .closedPipe:
            let output = Pipe()
            process.standardOutput = output
            try output.fileHandleForReading.close()
            try process.run()
        }
        let standardError = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let status =
            process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return (status, String(decoding: standardError, as: UTF8.self))
    }
}
