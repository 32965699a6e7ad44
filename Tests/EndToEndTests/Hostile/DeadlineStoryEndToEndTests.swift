import Foundation
import TestSupport
import Testing

/// One deadline story per BLE write, through the real binary and the BlueZ mock: a device that stalls
/// each write for longer than the adapter's own 5 s write limit ends by the flow's deadline, with the
/// flow's code and message, instead of the adapter's limit firing first as a lost link.
@Suite(.serialized, .requiresHarnessHost)
struct DeadlineStoryEndToEndTests {
    @Test func aWriteStalledPastTheAdaptersLimitEndsByTheRunsDeadline() async throws {
        let scenario = BLEEndToEndTests.scenario(device: ["write_latency_ms": 9000])
        try await withHarness(scenario: scenario) { h in
            let outcome = try await BLEEndToEndTests.ble(h, ["--timeout", "7"]).run()
            expectFailure(outcome, code: "timeout", status: 9)
            #expect(
                outcome.standardError.contains("did not confirm a BLE write before the overall time limit"),
                "\(outcome)")
            #expect(outcome.standardError.contains("--timeout"), "the hint names the limit to raise: \(outcome)")
            #expect(!outcome.standardError.contains("ble.link-lost"), "\(outcome)")
            try await BLEEndToEndTests.expectCleanAndSilent(outcome, h)
        }
    }
}
