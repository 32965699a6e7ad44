import BluFi
import DeviceEmulator
import Provisioning
import Testing

/// Ctrl-C in the middle of the flow: it ends with `CancellationError`, after asking the device to
/// close the link, and the emulated link is closed when its scope ends.
@Suite struct BluFiCancellationTests {
    /// Where to cancel, named by the progress event that marks it.
    enum Moment: String, CaseIterable {
        case negotiation
        case join

        func isReached(by event: BluFiProgress) -> Bool {
            switch (self, event) {
            case (.negotiation, .negotiationStarted), (.join, .joinRequested): true
            default: false
            }
        }
    }

    @Test(arguments: Moment.allCases)
    func cancellingEndsTheFlowAndTheLink(at moment: Moment) async throws {
        let (reached, signal) = AsyncStream.makeStream(of: Void.self)
        let recorder = BluFiRecorder { event in
            if moment.isReached(by: event) { signal.yield() }
        }
        // V2 at MTU 23 keeps the key exchange busy for dozens of frames; the join never ends on its own.
        // Without cancellation the flow would fail with a timeout after a second, not CancellationError.
        var timeouts = EmulatedBLE.timeouts
        timeouts.wifiJoin = .seconds(1)
        let ble = EmulatedBLE(
            device: EmulatedBLE.device(.v2), mtu: 23, joinDelay: nil, timeouts: timeouts, recorder: recorder)
        let flow = Task { try await ble.provision() }
        for await _ in reached { break }
        flow.cancel()

        await #expect(throws: CancellationError.self) { try await flow.value }
        #expect(await ble.link.closure != nil)
        #expect(!ble.leaksSecret())
    }

    @Test func cancellingWhileTheJoinRunsAsksTheDeviceToDisconnect() async throws {
        let (reached, signal) = AsyncStream.makeStream(of: Void.self)
        let recorder = BluFiRecorder { event in
            if case .joinRequested = event { signal.yield() }
        }
        var timeouts = EmulatedBLE.timeouts
        timeouts.wifiJoin = .seconds(1)
        let ble = EmulatedBLE(joinDelay: nil, timeouts: timeouts, recorder: recorder)
        let flow = Task { try await ble.provision() }
        for await _ in reached { break }
        flow.cancel()

        await #expect(throws: CancellationError.self) { try await flow.value }
        // The in-memory link carries a write even in a cancelled task, so DISCONNECT_BLE got through.
        #expect(await ble.link.writes.last?.first == BluFiFrameType.disconnectBLE.rawValue)
        #expect(await ble.link.closure == .byDevice)
    }
}
