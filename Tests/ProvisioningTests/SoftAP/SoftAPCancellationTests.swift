import DeviceEmulator
import Protocomm
import Provisioning
import Testing
import Transports

/// Ctrl-C in the middle of a run: the flow stops at once with `CancellationError` and still puts
/// the host back on its previous network. Limits here are long, so only cancellation can end a wait.
@Suite(.timeLimit(.minutes(1))) struct SoftAPCancellationTests {
    static let patientTimeouts = SoftAPTimeouts(
        join: WiFiJoinRequest.Timeouts(scan: .seconds(600), activation: .seconds(600), restore: .seconds(600)),
        protocomm: ProtocommTimeouts(
            exchange: .seconds(600), scan: .seconds(600), connect: .seconds(600), statusPollInterval: .milliseconds(1)))

    @Test(arguments: ["prov-session", "prov-config"])
    func cancellingWhileTheDeviceIsSilentRestoresTheNetwork(endpoint: String) async throws {
        let rig = SoftAPRig(
            SoftAPDeviceCase.security2Patch1.configuration,
            deviceFaults: [.init(endpoint: endpoint, action: .hang)], timeouts: Self.patientTimeouts)
        let run = Task { try await rig.run(deadline: .seconds(600)) }
        var hanging = rig.device.hangingRequests.makeAsyncIterator()
        #expect(await hanging.next() == endpoint)
        run.cancel()
        await #expect(throws: CancellationError.self) { try await run.value }
        await rig.expectRestored()
        #expect(rig.log.events.last == .leftHotspot(ssid: SoftAPRig.hotspotSSID))
    }

    @Test func cancellingWhileJoiningLeavesTheHostWhereItWas() async throws {
        let rig = SoftAPRig(
            SoftAPDeviceCase.security0.configuration, joinerFaults: [.timeOutJoin], timeouts: Self.patientTimeouts)
        let (joining, signal) = AsyncStream.makeStream(of: Void.self)
        let run = Task {
            try await rig.provisioner.run(SoftAPRig.request(), deadline: .now + .seconds(600)) { event in
                if case .joiningHotspot = event { signal.yield() }
            }
        }
        var started = joining.makeAsyncIterator()
        await started.next()
        run.cancel()
        await #expect(throws: CancellationError.self) { try await run.value }
        #expect(await rig.joiner.events == [.joinCancelled(ssid: SoftAPRig.hotspotSSID)])
        #expect(await rig.joiner.activeConnection == SoftAPRig.homeNetwork)
    }
}
