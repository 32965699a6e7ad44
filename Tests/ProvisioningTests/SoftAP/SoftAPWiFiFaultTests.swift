import DeviceEmulator
import Protocomm
import Provisioning
import Testing
import Transports

/// The device has its credentials but cannot join the network, or goes quiet while joining.
@Suite struct SoftAPWiFiFaultTests {
    @Test(
        arguments: [
            (
                ProtocommWiFiFailureReason.authenticationError, ErrorCode.protocommWiFiWrongPassword,
                "authentication error"
            ),
            (.networkNotFound, .protocommWiFiNotFound, "could not find the network"),
            (.unrecognized(7), .protocommWiFiJoinFailed, "failure reason 7"),
        ] as [(ProtocommWiFiFailureReason, ErrorCode, String)])
    func theDevicesReasonPicksTheCode(reason: ProtocommWiFiFailureReason, code: ErrorCode, words: String)
        async throws
    {
        let rig = SoftAPRig(.init(security: .security0, wifi: ProtocommDeviceWiFiPlan(outcome: .fail(reason))))
        let error = try await rig.failure()
        #expect(error.code == code)
        #expect(error.exitStatus == .wifiJoinFailed)
        #expect(error.message.contains(words))
        #expect(error.message.contains(SoftAPRig.targetSSID))
        #expect(error.hint.contains("ready for another try"))
        #expect(rig.log.events.contains(.protocomm(.deviceReset)))
        #expect(await rig.device.device.wifi.station == .awaitingCredentials)
        await rig.expectRestored()
    }

    @Test func aWrongPassphraseFailsLikeARealNetwork() async throws {
        let plan = ProtocommDeviceWiFiPlan(
            outcome: .checkPassphrases([SoftAPRig.targetSSID: "the-networks-passphrase"], ipAddress: "192.168.1.77"))
        let rig = SoftAPRig(SoftAPDeviceCase.security1.configuration.with(wifi: plan))
        let error = try await rig.failure()
        #expect(error.code == .protocommWiFiWrongPassword)
        await rig.expectRestored()
    }

    @Test func afterTheResetASecondRunWithTheRightPassphraseSucceeds() async throws {
        let plan = ProtocommDeviceWiFiPlan(
            outcome: .checkPassphrases([SoftAPRig.targetSSID: SoftAPRig.Secrets.wifiPassphrase], ipAddress: "10.0.0.9"))
        let rig = SoftAPRig(SoftAPDeviceCase.security1.configuration.with(wifi: plan))
        let error = try await rig.failure(SoftAPRig.request(passphrase: "a-wrong-passphrase"))
        #expect(error.code == .protocommWiFiWrongPassword)
        let outcome = try await rig.run()
        #expect(outcome.connection.ipAddress == "10.0.0.9")
        await rig.expectRestored()
    }

    @Test func firmwareWithoutControlEndpointCannotBeReset() async throws {
        var configuration = ProtocommDeviceConfiguration(
            security: .security0, wifi: ProtocommDeviceWiFiPlan(outcome: .fail(.networkNotFound)))
        configuration.hasControlEndpoint = false
        let rig = SoftAPRig(configuration)
        let error = try await rig.failure()
        #expect(error.code == .protocommWiFiNotFound)
        #expect(error.hint.contains("power-cycle"))
        #expect(rig.log.events.contains(.protocomm(.deviceResetUnavailable)))
        #expect(!rig.log.events.contains(.protocomm(.deviceReset)))
        await rig.expectRestored()
    }

    @Test func resetCanBeTurnedOff() async throws {
        let rig = SoftAPRig(
            .init(security: .security0, wifi: ProtocommDeviceWiFiPlan(outcome: .fail(.networkNotFound))))
        var request = SoftAPRig.request()
        request.resetsDeviceAfterFailure = false
        let error = try await rig.failure(request)
        #expect(error.code == .protocommWiFiNotFound)
        #expect(await !rig.device.exchanges.contains { $0.endpoint == "prov-ctrl" })
        #expect(await rig.device.device.wifi.station == .failed(.networkNotFound))
    }

    @Test func aDeviceStillJoiningAtTheConnectLimitIsAConnectTimeout() async throws {
        var timeouts = SoftAPRig.fastTimeouts
        timeouts.protocomm.connect = .milliseconds(100)
        let plan = ProtocommDeviceWiFiPlan(connectingPolls: .max)
        let rig = SoftAPRig(.init(security: .security0, wifi: plan), timeouts: timeouts)
        let error = try await rig.failure()
        #expect(error.code == .protocommWiFiConnectTimeout)
        #expect(error.exitStatus == .timeout)
        // The device's scan after the silent join rules out range: it hears the network well.
        #expect(
            error.message
                == "The device was still joining \(SoftAPRig.targetSSID) after 0.1 s. The device hears "
                + "\"\(SoftAPRig.targetSSID)\" well (-42 dBm).")
        #expect(error.heardNetworks?.first?.name == SoftAPRig.targetSSID)
        await rig.expectRestored()
    }

    @Test(arguments: [ProtocommTransportFault.Action.closeConnection, .refuseConnection, .hang])
    func losingTheDeviceAfterApplyLeavesTheOutcomeUnknown(action: ProtocommTransportFault.Action) async throws {
        // The limit bounds set config and apply too, so it leaves room for a loaded machine.
        var timeouts = SoftAPRig.fastTimeouts
        timeouts.protocomm.exchange = .seconds(1)
        // Requests on prov-config: set config, apply, then the first status poll.
        let rig = SoftAPRig(
            SoftAPDeviceCase.security1.configuration,
            deviceFaults: [.init(endpoint: "prov-config", occurrence: 3, action: action)], timeouts: timeouts)
        let error = try await rig.failure()
        #expect(error.code == .protocommOutcomeUnknown)
        #expect(error.exitStatus == .linkFailure)
        #expect(error.hint.contains("ztprov discover"))
        await rig.expectRestored()
    }
}

extension ProtocommDeviceConfiguration {
    fileprivate func with(wifi plan: ProtocommDeviceWiFiPlan) -> ProtocommDeviceConfiguration {
        var copy = self
        copy.wifi = plan
        return copy
    }
}
