import BluFi
import Provisioning
import TestSupport
import Testing
import Transports

/// One deadline story per BLE write: the connection is handed the flow's deadline for each write (its own
/// limit, or the whole run's if that ends first), so a stalled write ends with the code and message of
/// the shorter of the two, never as a lost link.
@Suite struct BluFiWriteDeadlineTests {
    /// A peer like the BlueZ adapter's: a write stalls `stall`, and waits at most until the caller's deadline
    /// (`DeadlineExceeded`).
    struct StallingLink: ScriptedBluFiPeer {
        let mtu = 185
        let notifications: AsyncThrowingStream<[UInt8], any Error> = AsyncThrowingStream { _ in }
        let stall: Duration

        func frameWritten(_ value: [UInt8], until deadline: ContinuousClock.Instant) async throws {
            let left = ContinuousClock.now.duration(to: deadline)
            try await Task.sleep(for: max(min(stall, left), .zero))
            if left < stall { throw DeadlineExceeded("GATT write") }
        }
    }

    /// Generated (write limit, run limit, stall) sets, the stall always the longest and the others well
    /// apart: the error is `timeout` and names the flow's shorter limit.
    @Test func aStalledWriteNamesTheShorterOfTheFlowsLimits() async throws {
        var random = SplitMix64(seed: 0x0BAD_5707)
        for _ in 0..<12 {
            let step = Duration.milliseconds(80 + random.below(100))
            let overall = random.below(2) == 0 ? step + .milliseconds(120) : step - .milliseconds(60)
            let stall = max(step, overall) + .milliseconds(150 + random.below(100))
            var timeouts = EmulatedBLE.timeouts
            timeouts.write = step
            let provisioner = BluFiProvisioner(
                connection: StallingLink(stall: stall), security: .fixed(.none), timeouts: timeouts,
                logger: BluFiRecorder().logger())
            let shown = "write limit \(step), run \(overall), stall \(stall)"
            let error = await #expect(throws: ProvisioningError.self, "\(shown)") {
                _ = try await provisioner.run(
                    WiFiSettings(.station(EmulatedBLE.station), expectsDeviceID: false),
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

    /// A write slower than the wait for an answer but within the write's limit is confirmed.
    @Test func aSlowWriteWithinTheFlowsLimitIsConfirmed() async throws {
        let link = StallingLink(stall: .milliseconds(120))
        var timeouts = EmulatedBLE.timeouts
        timeouts.write = .seconds(60)
        timeouts.version = .milliseconds(100)
        timeouts.acknowledgement = .milliseconds(100)
        let provisioner = BluFiProvisioner(
            connection: link, security: .fixed(.none), timeouts: timeouts, logger: BluFiRecorder().logger())
        let error = await #expect(throws: ProvisioningError.self) {
            _ = try await provisioner.run(
                WiFiSettings(.station(EmulatedBLE.station), expectsDeviceID: false),
                deadline: .now + .seconds(120), progress: { _ in })
        }
        // Every write was confirmed, so what ran out was the wait for the device's answer.
        #expect(error?.code != .bleLinkLost, "\(String(describing: error))")
        #expect(error?.message.contains("BLE write") == false, "\(String(describing: error))")
    }
}
