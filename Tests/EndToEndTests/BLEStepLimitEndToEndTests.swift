import Foundation
import TestSupport
import Testing

/// A BLE flow's own step limits decide how long a device may take, not the BlueZ adapter's default for a
/// GATT access (5 s): devices slower than that default but within the step are provisioned, and one that
/// never answers fails at the step's limit, which the message names.
@Suite(.serialized, .requiresHarnessHost)
struct BLEStepLimitEndToEndTests {
    /// A protocomm device whose blocking Wi-Fi scan holds the prov-scan write for 7 s lists its networks
    /// (the scan's step limit is 20 s).
    @Test func aProtocommScanSlowerThanTheAdaptersDefaultListsItsNetworks() async throws {
        let address = "24:0A:C4:00:41:01"
        let scenario = BLEProtocommEndToEndTests.scenario(
            BLEProtocommEndToEndTests.device(address, protocomm: ["security": 1, "scan_duration_ms": 7000]))
        try await withHarness(scenario: scenario) { h in
            let outcome = try await BLEProtocommEndToEndTests.ble(
                h, ["--device", address, "--protocol", "protocomm", "--pop-env", "ZTPROV_E2E_POP", "--list-networks"]
            ).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            let listed = outcome.events.first { $0["event"] as? String == "networks" }
            #expect(((listed?["networks"] as? [Any])?.count ?? 0) > 0, "\(outcome)")
            try await BLEProtocommEndToEndTests.expectCleanAndSilent(outcome, h)
        }
    }

    /// A scan that never ends fails when the scan's 20 s limit runs out, and says so.
    @Test func aProtocommScanThatNeverEndsFailsAtTheScansLimit() async throws {
        let address = "24:0A:C4:00:41:02"
        let scenario = BLEProtocommEndToEndTests.scenario(
            BLEProtocommEndToEndTests.device(address, protocomm: ["security": 1, "scan_duration_ms": 600_000]))
        try await withHarness(scenario: scenario) { h in
            let outcome = try await BLEProtocommEndToEndTests.ble(
                h, ["--device", address, "--protocol", "protocomm", "--pop-env", "ZTPROV_E2E_POP", "--list-networks"]
            ).run()
            #expect(outcome.exitStatus == 9, "\(outcome)")
            #expect(outcome.standardError.contains("/prov-scan within 20 s"), "\(outcome)")
            try await BLEProtocommEndToEndTests.expectCleanAndSilent(outcome, h)
        }
    }

    /// An Improv device that acknowledges each RPC write after 7 s is provisioned (a write's step limit
    /// is 10 s).
    @Test func anImprovDeviceSlowerThanTheAdaptersDefaultIsProvisioned() async throws {
        let scenario = ImprovEndToEndTests.scenario(device: ["write_latency_ms": 7000])
        try await withHarness(scenario: scenario) { h in
            let outcome = try await ImprovEndToEndTests.ble(h).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            #expect(outcome.result?["protocol"] as? String == "improv")
            let device = try await ImprovEndToEndTests.device(h)
            #expect(device["state"] == 4, "\(device)")
            try await ImprovEndToEndTests.expectCleanAndSilent(outcome, h)
        }
    }

    /// An Improv device that never acknowledges a write fails when the write's 10 s limit runs out.
    @Test func anImprovDeviceThatNeverAnswersFailsAtTheWritesLimit() async throws {
        let scenario = ImprovEndToEndTests.scenario(device: ["write_latency_ms": 600_000])
        try await withHarness(scenario: scenario) { h in
            let outcome = try await ImprovEndToEndTests.ble(h).run()
            #expect(outcome.exitStatus == 9, "\(outcome)")
            #expect(outcome.standardError.contains("did not respond within 10 s"), "\(outcome)")
            try await ImprovEndToEndTests.expectCleanAndSilent(outcome, h)
        }
    }
}
