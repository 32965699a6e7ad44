import DeviceEmulator
import Protocomm
import Provisioning
import Testing
import Transports

/// Failures on the device's side: credentials, endpoints, dropped connections, silence, and the
/// device's own trouble joining the network. Each maps to its code and exit status, and the host
/// ends up on its previous network.
@Suite struct SoftAPDeviceFaultTests {
    @Test func wrongProofOfPossessionIsWrongPoP() async throws {
        let rig = SoftAPRig(.init(security: .security1(proofOfPossession: "the-devices-pop")))
        let error = try await rig.failure()
        #expect(error.code == .wrongPoP)
        #expect(error.exitStatus == .authenticationFailed)
        #expect(error.message.contains("proof of possession"))
        #expect(await rig.device.exchanges.last?.outcome == .closed(.credentialsMismatch))
        await rig.expectRestored()
    }

    @Test func wrongSRPPasswordIsWrongPoP() async throws {
        let verifier = ProtocommSecurity2Verifier(
            username: SoftAPRig.srpUsername, password: "another-password", salt: SoftAPRig.salt)
        let rig = SoftAPRig(.init(security: .security2(verifier: verifier, patch: .counterNonce)))
        let error = try await rig.failure()
        #expect(error.code == .wrongPoP)
        #expect(error.message.contains("SRP"))
        await rig.expectRestored()
    }

    @Test func missingProofOfPossessionIsAUsageError() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security1.configuration)
        let error = try await rig.failure(SoftAPRig.request(security: ProtocommSecurityOptions()))
        #expect(error.code == .protocommCredentialsMissing)
        #expect(error.exitStatus == .usage)
        #expect(await rig.device.exchanges.map(\.endpoint) == ["proto-ver"])
        await rig.expectRestored()
    }

    @Test func missingSRPCredentialsIsAUsageError() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security2Patch0.configuration)
        let options = ProtocommSecurityOptions(proofOfPossession: Secret(SoftAPRig.Secrets.proofOfPossession))
        let error = try await rig.failure(SoftAPRig.request(security: options))
        #expect(error.code == .protocommCredentialsMissing)
        #expect(error.message.contains("security 2"))
        await rig.expectRestored()
    }

    @Test func aConnectionDroppedEarlyInTheHandshakeIsAnAuthenticationError() async throws {
        let rig = SoftAPRig(
            SoftAPDeviceCase.security1.configuration,
            deviceFaults: [.init(endpoint: "prov-session", action: .closeConnection)])
        let error = try await rig.failure()
        #expect(error.code == .protocommSessionRejected)
        #expect(error.exitStatus == .authenticationFailed)
        #expect(error.hint.contains("PoP"))
        await rig.expectRestored()
    }

    @Test func aConnectionDroppedAfterTheHandshakeIsALinkFailure() async throws {
        let rig = SoftAPRig(
            SoftAPDeviceCase.security1.configuration,
            deviceFaults: [.init(endpoint: "prov-config", action: .closeConnection)])
        let error = try await rig.failure()
        #expect(error.code == .protocommConnectionClosed)
        #expect(error.exitStatus == .linkFailure)
        await rig.expectRestored()
    }

    @Test func aSecurity2PatchMismatchPointsAtThePatchLevel() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security2Patch1.configuration)
        var security = SoftAPRig.allCredentials
        security.patch = .fixedNonce
        let error = try await rig.failure(SoftAPRig.request(security: security))
        #expect(error.exitStatus == .linkFailure || error.exitStatus == .authenticationFailed)
        #expect(error.hint.contains("patch level"))
        await rig.expectRestored()
    }

    @Test func aMissingEndpointSaysTheFirmwareLacksIt() async throws {
        let rig = SoftAPRig(
            SoftAPDeviceCase.security0.configuration,
            deviceFaults: [.init(endpoint: "prov-config", action: .notFound)])
        let error = try await rig.failure()
        #expect(error.code == .protocommEndpointMissing)
        #expect(error.exitStatus == .linkFailure)
        #expect(error.message.contains("firmware lacks the /prov-config endpoint"))
        await rig.expectRestored()
    }

    @Test func aMissingScanEndpointSuggestsRunningWithoutTheList() async throws {
        let rig = SoftAPRig(
            SoftAPDeviceCase.security1.configuration,
            deviceFaults: [.init(endpoint: "prov-scan", action: .notFound)])
        let error = try await rig.failure(SoftAPRig.request(listsNetworks: true))
        #expect(error.code == .protocommEndpointMissing)
        #expect(error.hint.contains("--list-networks"))
        await rig.expectRestored()
    }

    @Test func aDeviceThatRefusesConnectionsIsUnreachable() async throws {
        let rig = SoftAPRig(
            SoftAPDeviceCase.security0.configuration,
            deviceFaults: [.init(endpoint: "proto-ver", action: .refuseConnection)])
        let error = try await rig.failure()
        #expect(error.code == .softAPDeviceUnreachable)
        #expect(error.message.contains("127.0.0.1:8080"))
        await rig.expectRestored()
    }

    @Test func aDeviceThatFinishedProvisioningNoLongerAnswers() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security0.configuration)
        _ = try await rig.run()
        let error = try await rig.failure()
        #expect(error.code == .softAPDeviceUnreachable)
        #expect(await rig.device.exchanges.last?.outcome == .refused)
        await rig.expectRestored()
    }

    @Test func aSilentDeviceTimesOutOnTheRequestLimit() async throws {
        // The limit bounds every request before the silent one too, so it leaves room for a loaded machine.
        var timeouts = SoftAPRig.fastTimeouts
        timeouts.protocomm.exchange = .seconds(1)
        let rig = SoftAPRig(
            SoftAPDeviceCase.security2Patch1.configuration,
            deviceFaults: [.init(endpoint: "prov-session", occurrence: 2, action: .hang)], timeouts: timeouts)
        let error = try await rig.failure()
        #expect(error.code == .protocommDeviceTimeout)
        #expect(error.exitStatus == .timeout)
        #expect(error.message == "The device did not answer /prov-session within 1 s.")
        await rig.expectRestored()
    }

    @Test func theRunDeadlineEndsAWaitToo() async throws {
        let rig = SoftAPRig(
            SoftAPDeviceCase.security0.configuration,
            deviceFaults: [.init(endpoint: "proto-ver", action: .hang)])
        // The deadline covers the hotspot join before the silent request, so it leaves room for a loaded machine.
        let error = try await rig.failure(deadline: .seconds(1))
        #expect(error.code == .protocommDeviceTimeout)
        #expect(error.message.contains("time limit"))
        await rig.expectRestored()
    }
}
