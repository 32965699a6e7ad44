import Foundation
import Glibc
import Records
import TestSupport
import Testing

/// A dropped session (SIGHUP) or a stop request (SIGTERM) ends every command like the first Ctrl-C: the
/// BLE link is released, the host is back on its previous network by ztprov's own restore (also when that
/// network does not autoconnect, so NetworkManager would not bring it back), the attempt in flight is
/// recorded as interrupted, and the JSON result says which signal it was, with exit status 129 or 143.
@Suite(.serialized, .requiresHarnessHost)
struct SessionDropEndToEndTests {
    static let signals: [(Int32, Int32, String)] = [
        (SIGHUP, 129, "interrupted.hangup"), (SIGTERM, 143, "interrupted.terminated"),
    ]

    /// Sends `signal` once standard error shows `text`, and waits for the end.
    static func run(_ launch: ProcessLaunch, signal: Int32, when text: String) async throws -> ProcessOutcome {
        try await launch.withRunning { process in
            process.send(signal: signal, whenStandardErrorContains: text)
            return await process.waitForExit()
        }
    }

    @Test(arguments: signals, [true, false])
    func softAPMidJoinRestoresThePreviousNetworkItself(
        signal: (number: Int32, status: Int32, code: String), previousAutoconnects: Bool
    ) async throws {
        let softAP = SoftAPEndToEndTests()
        var scenario = SoftAPEndToEndTests.scenario(
            protocomm: ["security": 1, "pop": .string(SoftAPEndToEndTests.proofOfPossession), "connecting_polls": 1000])
        if case .object(var members) = scenario, case .object(var nm) = members["nm"] {
            nm["previous_connection"] = [
                "id": "HomeE2E", "ssid": "HomeNet", "autoconnect": .bool(previousAutoconnects),
            ]
            members["nm"] = .object(nm)
            scenario = .object(members)
        }
        try await withHarness(scenario: scenario) { h in
            let outcome = try await Self.run(try softAP.launch(h), signal: signal.number, when: "joining the network")
            expectFailure(outcome, code: signal.code, status: signal.status, secrets: SoftAPEndToEndTests.secrets)
            #expect(outcome.events.contains { $0["event"] as? String == "left-hotspot" }, "\(outcome)")
            try await softAP.expectCleanHost(h, outcome)
            // ztprov restored the host: NetworkManager never had to drop the hotspot for a vanished client.
            let events = try await h.calls(mock: .nm)["state"]?["events"]?.array ?? []
            #expect(!events.contains { $0["event"]?.string == "bound_client_left" }, "\(events)")
        }
    }

    @Test(arguments: signals)
    func bleWhileConnectingReleasesTheLink(signal: (number: Int32, status: Int32, code: String)) async throws {
        try await withHarness(scenario: BLEEndToEndTests.scenario(device: ["resolve_delay_ms": 600_000])) { h in
            let outcome = try await Self.run(
                try BLEEndToEndTests.ble(h), signal: signal.number, when: "Device1.Connect on")
            expectFailure(outcome, code: signal.code, status: signal.status)
            let methods = try await BLEEndToEndTests.bluezMethods(h)
            #expect(methods.contains("Connect") && methods.last == "Disconnect", "\(methods)")
            try await BLEEndToEndTests.expectCleanAndSilent(outcome, h)
        }
    }

    @Test(arguments: signals)
    func batchRecordsTheAttemptsInFlightAsInterrupted(signal: (number: Int32, status: Int32, code: String))
        async throws
    {
        let directory = try BatchEndToEndTests.workspace(units: 12)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withHarness(scenario: BatchEndToEndTests.scenario()) { h in
            let outcome = try await Self.run(
                try BatchEndToEndTests.batch(h, directory), signal: signal.number, when: ": provisioned")
            #expect(outcome.exitStatus == signal.status, "\(outcome)")
            #expect(outcome.standardError.contains("error[\(signal.code)]"), "\(outcome)")
            #expect(outcome.result?["code"] as? String == signal.code, "\(outcome)")
            let records = try await BatchEndToEndTests.records(directory)
            let unfinished = records.filter { !$0.succeeded }
            #expect(!unfinished.isEmpty, "no attempt was in flight: \(records.map(\.code))")
            #expect(unfinished.allSatisfy { $0.code == "interrupted" && !$0.isFinal }, "\(records.map(\.code))")
            try await BatchEndToEndTests.expectNoLinkLeftUp(h)
        }
    }
}
