import DeviceEmulator
import Provisioning
import Testing
import Transports
import ZhitingLAN

@Suite struct LANDiscoveryTests {
    @Test func findsDevicesAndHubsWithTheirInfo() async throws {
        let lan = EmulatedLAN()
        await lan.link.attach(.zhiting(EmulatedLAN.switchResponder()), at: EmulatedLAN.switchAddress)
        await lan.link.attach(.zhiting(EmulatedLAN.hubResponder()), at: EmulatedLAN.hubAddress)
        let found = try await lan.discovery().run(
            LANTarget(),
            deadline: .now + .seconds(5),
            progress: lan.recorder.sink
        )
        #expect(found.map(\.device.id) == [EmulatedLAN.switchID, EmulatedLAN.hubID])
        #expect(found.map(\.isSmartAssistant) == [false, true])
        #expect(found[0].info?.hardwareVersion == "esp32c3")
        #expect(found[1].info?.smartAssistantID == "sa-1")
        #expect(found[1].info?.port == 37965)
        #expect(found.allSatisfy { $0.problem == nil })
    }

    @Test func aDeviceWhoseInfoCannotBeReadIsStillListed() async throws {
        let lan = await EmulatedLAN.fast(with: .zhiting(EmulatedLAN.switchResponder()))
        let hello = EmulatedLAN.hubResponder()
        await lan.link.attach(
            .scripted { datagram in
                var hub = hello
                return datagram == ZhitingHello.request ? [hub.receivedDatagram(datagram)!] : []
            },
            at: EmulatedLAN.hubAddress
        )
        let found = try await lan.discovery().run(
            LANTarget(),
            deadline: .now + .seconds(5),
            progress: lan.recorder.sink
        )
        #expect(found.count == 2)
        #expect(found[1].info == nil)
        #expect(found[1].problem?.code == .handoffNoToken)
        #expect(found[1].isSmartAssistant, "the hello's model still tells a hub apart")
    }

    /// The listen window and the deadline both outlast the test's time limit: only stopping at the
    /// answer ends the run in time.
    @Test(.timeLimit(.minutes(1))) func aUnicastTargetStopsListeningOnceItAnswers() async throws {
        var timeouts = EmulatedLAN.patientTimeouts
        timeouts.listenWindow = .seconds(600)
        let lan = EmulatedLAN(timeouts: timeouts)
        await lan.link.attach(.zhiting(EmulatedLAN.switchResponder()), at: EmulatedLAN.switchAddress)
        let found = try await lan.discovery().run(
            LANTarget(address: EmulatedLAN.switchAddress),
            deadline: .now + .seconds(600),
            progress: lan.recorder.sink
        )
        #expect(found.map(\.device.id) == [EmulatedLAN.switchID])
    }

    @Test func anEmptyLANIsDeviceNotFound() async {
        let lan = EmulatedLAN(timeouts: EmulatedLAN.fastTimeouts)
        let error = await failure { () async throws(ProvisioningError) in
            try await lan.discovery().run(LANTarget(), deadline: .now + .seconds(5), progress: lan.recorder.sink)
        }
        #expect(error?.code == .lanNoReply)
        #expect(error?.exitStatus == .deviceNotFound)
    }
}
