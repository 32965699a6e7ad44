import Foundation
import TestSupport
import Testing
import Transports

@testable import BlueZ

/// A write, read, subscribe or connect given the caller's deadline runs until that deadline, not the
/// adapter's own (shorter) limit, and running out is the caller's `DeadlineExceeded`, never the
/// adapter's timeout, so the flow that chose the deadline names what ran out.
@Suite(.enabled(if: PrivateBus.isAvailable, "\(PrivateBus.unavailableReason ?? "")"), .timeLimit(.minutes(2)))
struct CallerDeadlineMockBusTests {
    /// The adapter's own write limit, shorter than every stall below.
    static let shortOwnLimits = BlueZTimeouts(
        call: .milliseconds(150), connectAttempt: .milliseconds(150), write: .milliseconds(150),
        disconnect: .seconds(2), rediscovery: .seconds(2))

    /// Generated (stall, caller's limit) pairs, each well apart so load cannot swap their order: the write
    /// is confirmed exactly when the stall is the shorter, and otherwise ends with `DeadlineExceeded`.
    @Test func aStalledWriteEndsByTheCallersDeadlineWhicheverIsShorter() async throws {
        var random = SplitMix64(seed: 0x12_0D_EA_D1)
        for _ in 0..<4 {
            let stall = 250 + random.below(300)
            let callers = random.below(2) == 0 ? stall + 400 + random.below(300) : stall - 180 + random.below(60)
            try await BlueZMock.with(BlueZClientMockBusTests.device(#", "write_latency_ms": \#(stall)"#)) { mock in
                try await BlueZClient.withClient(bus: mock.busAddress, timeouts: Self.shortOwnLimits) { client in
                    let device = try await client.findDevice(
                        on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                    try await client.withConnectedDevice(device, until: .now + .seconds(5)) { gatt in
                        let write = try gatt.bluFiCharacteristic("ff01")
                        let deadline = ContinuousClock.now + .milliseconds(callers)
                        let shown = "stall \(stall) ms, caller's limit \(callers) ms"
                        do {
                            try await gatt.write(
                                BlueZClientMockBusTests.getVersion, to: write, type: .withResponse, until: deadline)
                            #expect(stall < callers, "confirmed although the caller's limit was shorter: \(shown)")
                        } catch let error as DeadlineExceeded {
                            #expect(callers < stall, "\(error) although the stall was shorter: \(shown)")
                            #expect(error.operation == "GATT write")
                        }
                    }
                }
            }
        }
    }

    @Test func readsAndSubscribingTakeTheCallersDeadlineToo() async throws {
        try await BlueZMock.with(BlueZClientMockBusTests.device()) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: Self.shortOwnLimits) { client in
                let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                try await client.withConnectedDevice(device, until: .now + .seconds(5)) { gatt in
                    let notify = try gatt.bluFiCharacteristic("ff02")
                    _ = try await gatt.subscribe(to: notify, until: .now + .seconds(2))
                    _ = try await gatt.read(notify, until: .now + .seconds(2))
                    await #expect(throws: DeadlineExceeded.self) {
                        _ = try await gatt.read(notify, until: .now - .seconds(1))
                    }
                }
            }
        }
    }

    /// Services that resolve later than the caller's deadline end connecting with the caller's error,
    /// after no retry that would outlast it, and the link is released.
    @Test func connectingEndsByTheCallersDeadline() async throws {
        // The services never resolve within the suite's time limit, and an attempt's own limit is far
        // longer than the caller's deadline: ending before that limit shows the caller's deadline ended it.
        var ownLimits = BlueZClientMockBusTests.fast
        ownLimits.connectAttempt = .seconds(60)
        try await BlueZMock.with(BlueZClientMockBusTests.device(#", "resolve_delay_ms": 600000"#)) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: ownLimits) { client in
                let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                let started = ContinuousClock.now
                await #expect(throws: DeadlineExceeded.self) {
                    try await client.withConnectedDevice(
                        device, retryPolicy: BlueZClientMockBusTests.quickRetries, until: .now + .milliseconds(700)
                    ) { _ in }
                }
                #expect(
                    ContinuousClock.now - started < ownLimits.connectAttempt,
                    "an attempt outlasted the caller's deadline")
            }
            #expect(try mock.calledMethods().last == "Disconnect")
        }
    }
}
