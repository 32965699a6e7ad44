import BluFi
import Provisioning
import TestSupport
import Testing
import Transports

/// One deadline story per BLE write: the link is handed the flow's deadline for each write (its own
/// limit, or the whole run's if that ends first), so a stalled write ends with the code and message of
/// the shorter of the two, never as a lost link because the adapter's own, shorter limit fired first.
@Suite struct BluFiWriteDeadlineTests {
    /// A link like the BlueZ adapter's: a write stalls `stall`; given a deadline it waits at most until
    /// then (`DeadlineExceeded`), without one its own `ownLimit` ends it as a link failure.
    struct StallingLink: BluFiLink {
        struct OwnTimeout: Error {}

        let mtu = 185
        let notifications: AsyncThrowingStream<[UInt8], any Error> = AsyncThrowingStream { _ in }
        let stall: Duration
        let ownLimit: Duration

        func write(_ value: [UInt8]) async throws {
            try await Task.sleep(for: min(stall, ownLimit))
            if ownLimit < stall { throw OwnTimeout() }
        }

        func write(_ value: [UInt8], until deadline: ContinuousClock.Instant) async throws {
            let left = ContinuousClock.now.duration(to: deadline)
            try await Task.sleep(for: max(min(stall, left), .zero))
            if left < stall { throw DeadlineExceeded("GATT write") }
        }
    }

    /// Generated (adapter limit, write limit, run limit, stall) sets, the stall always the longest and the
    /// others well apart: the error is `timeout` and names the flow's shorter limit, whatever the adapter's.
    @Test func aStalledWriteNamesTheShorterOfTheFlowsLimits() async throws {
        var random = SplitMix64(seed: 0x0BAD_5707)
        for _ in 0..<12 {
            let own = Duration.milliseconds(10 + random.below(60))
            let step = Duration.milliseconds(80 + random.below(100))
            let overall = random.below(2) == 0 ? step + .milliseconds(120) : step - .milliseconds(60)
            let stall = max(step, overall) + .milliseconds(150 + random.below(100))
            var timeouts = EmulatedBLE.timeouts
            timeouts.write = step
            let provisioner = BluFiProvisioner(
                link: StallingLink(stall: stall, ownLimit: own), security: .fixed(.none), timeouts: timeouts,
                logger: BluFiRecorder().logger())
            let shown = "adapter \(own), write limit \(step), run \(overall), stall \(stall)"
            let error = await #expect(throws: ProvisioningError.self, "\(shown)") {
                _ = try await provisioner.run(
                    BluFiWiFiSettings(.station(EmulatedBLE.station), expectsDeviceID: false),
                    deadline: .now + overall, progress: { _ in })
            }
            #expect(error?.code == .timeout, "\(shown): \(String(describing: error))")
            if step < overall {
                #expect(error?.message.contains("did not confirm a BLE write within") == true, "\(shown): \(error!)")
            } else {
                #expect(error?.message.contains("before the overall time limit") == true, "\(shown): \(error!)")
            }
        }
    }

    /// A write shorter than both limits is confirmed: the adapter's own, shorter limit is not used.
    @Test func aSlowWriteWithinTheFlowsLimitIsNotCutShortByTheAdapter() async throws {
        let link = StallingLink(stall: .milliseconds(120), ownLimit: .milliseconds(20))
        var timeouts = EmulatedBLE.timeouts
        timeouts.write = .seconds(60)
        timeouts.version = .milliseconds(100)
        timeouts.acknowledgement = .milliseconds(100)
        let provisioner = BluFiProvisioner(
            link: link, security: .fixed(.none), timeouts: timeouts, logger: BluFiRecorder().logger())
        let error = await #expect(throws: ProvisioningError.self) {
            _ = try await provisioner.run(
                BluFiWiFiSettings(.station(EmulatedBLE.station), expectsDeviceID: false),
                deadline: .now + .seconds(120), progress: { _ in })
        }
        // Every write was confirmed, so what ran out was the wait for the device's answer.
        #expect(error?.code != .bleLinkLost, "\(String(describing: error))")
        #expect(error?.message.contains("BLE write") == false, "\(String(describing: error))")
    }
}
