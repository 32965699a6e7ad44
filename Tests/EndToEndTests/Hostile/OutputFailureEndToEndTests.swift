import Foundation
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
        let directory = try TemporaryDirectory("output")
        defer { directory.remove() }
        let records = directory.url.appending(path: "records.sqlite").path
        let store = try await SQLiteRecordStore(path: records)
        for index in 0..<50 { try await store.append(RecordSafetyEndToEndTests.record(name: "unit-\(index)")) }
        for arguments in [
            ["--version"], ["--help"], ["report", "--help"], ["report", "--format", "csv", "--db", records],
            ["report", "--format", "json", "--db", records], ["demo", "--json"],
        ] {
            var launch = try ZTProvProcess.launch(arguments)
            launch.environment = HostileRun.noBus
            launch.standardOutput = sink.standardOutput
            let outcome = try await launch.run()
            #expect(outcome.termination == .exited(3), "\(arguments) to \(sink): \(outcome)")
            #expect(outcome.standardError.contains("error[host.output-failed]"), "\(arguments): \(outcome)")
        }
    }
}

extension OutputFailureEndToEndTests.Sink {
    var standardOutput: StandardOutput {
        switch self {
        case .full: .path("/dev/full")
        case .closedPipe: .brokenPipe
        }
    }
}
