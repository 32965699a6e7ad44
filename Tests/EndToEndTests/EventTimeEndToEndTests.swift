import Foundation
import TestSupport
import Testing

/// `elapsed_ms` on every JSON Lines event: monotonic milliseconds since the command started. Every
/// end-to-end test that reads events checks it too (``ProcessOutcome/events``); these check that
/// the values measure the run, not just that they are there.
@Suite struct EventTimeEndToEndTests {
    @Test func demoEventsCountMillisecondsAcrossTheRun() async throws {
        let started = ContinuousClock.now
        let outcome = try await ZTProvProcess.run(["demo", "--json"])
        let wall = ContinuousClock.now - started
        #expect(outcome.exitStatus == 0, "\(outcome.standardError)")
        let events = outcome.events
        let stamps = events.compactMap { $0["elapsed_ms"] as? Int }
        #expect(stamps.count == events.count && events.count > 20)
        let first = try #require(stamps.first)
        let last = try #require(stamps.last)
        #expect(last > first, "the demo's steps take time: \(stamps)")
        #expect(Double(last) <= Double(wall.components.seconds) * 1000 + 1000, "\(last) ms in a \(wall) run")
    }

    @Test func aUsageErrorInJSONCarriesItToo() async throws {
        let outcome = try await ZTProvProcess.run(["ble", "--json", "--mtu-nonsense"])
        #expect(outcome.exitStatus == 2)
        let result = try #require(outcome.result, "\(outcome)")
        #expect(result["elapsed_ms"] as? Int != nil)
    }
}
