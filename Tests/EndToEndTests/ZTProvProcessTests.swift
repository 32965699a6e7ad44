import TestSupport
import Testing

@testable import ztprov

/// The real `ztprov` binary, run as a user runs it: proves the binary is built and found.
@Suite struct ZTProvProcessTests {
    @Test func versionPrintsTheVersion() async throws {
        let outcome = try await ZTProvProcess.run(["--version"])
        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.standardOutput == ZTProv.version + "\n")
    }

    @Test func helpDescribesTheToolAndItsExitStatuses() async throws {
        let outcome = try await ZTProvProcess.run(["--help"])
        #expect(outcome.succeeded, "\(outcome)")
        #expect(outcome.standardOutput.contains("USAGE: ztprov"))
        #expect(outcome.standardOutput.contains("Provision ESP32-based Zhiting smart-home devices"))
        #expect(outcome.standardOutput.contains("130 interrupted"))
    }
}
