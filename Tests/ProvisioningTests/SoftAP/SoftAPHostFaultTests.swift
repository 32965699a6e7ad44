import DeviceEmulator
import Protocomm
import Provisioning
import Testing
import Transports

/// Failures on the host's side of the SoftAP path: bad input, the hotspot join and the restore.
/// Every one maps to its code and exit status, and the host ends up on its previous network.
@Suite struct SoftAPHostFaultTests {
    @Test func refusesAnOverlongSSIDBeforeJoining() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security0.configuration)
        let error = try await rig.failure(SoftAPRig.request(ssid: String(repeating: "n", count: 33)))
        #expect(error.code == .softAPInvalidSSID)
        #expect(error.exitStatus == .usage)
        #expect(await rig.joiner.events.isEmpty)
    }

    @Test func refusesAnOverlongPassphraseBeforeJoining() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security0.configuration)
        let error = try await rig.failure(SoftAPRig.request(passphrase: String(repeating: "p", count: 64)))
        #expect(error.code == .softAPInvalidPassphrase)
        #expect(error.exitStatus == .usage)
        #expect(error.message.contains("64 bytes"))
        #expect(await rig.joiner.events.isEmpty)
    }

    @Test func refusesAShortHotspotPasswordBeforeJoining() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security0.configuration)
        let error = try await rig.failure(SoftAPRig.request(hotspotPassword: "short"))
        #expect(error.code == .softAPInvalidHotspotPassword)
        #expect(error.exitStatus == .usage)
        #expect(await rig.joiner.events.isEmpty)
    }

    @Test func wrongHotspotPasswordIsRejected() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security0.configuration, hotspotPassword: "the-real-one")
        let error = try await rig.failure(SoftAPRig.request(hotspotPassword: SoftAPRig.Secrets.hotspotPassword))
        #expect(error.code == .hotspotPasswordRejected)
        #expect(error.code.rawValue == "softap.hotspot-password-rejected")
        #expect(error.exitStatus == .authenticationFailed)
        #expect(error.message.contains("rejected the password"))
        await rig.expectRestored()
    }

    @Test func missingHotspotPasswordSaysOneIsNeeded() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security0.configuration, hotspotPassword: "the-real-one")
        let error = try await rig.failure()
        #expect(error.code == .hotspotPasswordRejected)
        #expect(error.message.contains("needs a password"))
        await rig.expectRestored()
    }

    @Test func hotspotOutOfRangeIsDeviceNotFound() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security0.configuration)
        var request = SoftAPRig.request()
        request.hotspot.ssid = "MH-FFFFFF"
        let error = try await rig.failure(request)
        #expect(error.code == .softAPHotspotNotFound)
        #expect(error.exitStatus == .deviceNotFound)
        #expect(error.message.contains("MH-FFFFFF"))
        await rig.expectRestored()
    }

    @Test(
        arguments: [
            (
                WiFiJoinFailureKind.serviceUnavailable, ErrorCode.networkServiceUnavailable,
                Provisioning.ExitStatus.hostPrecondition
            ),
            (.busNotAnswering, .busNotAnswering, .hostPrecondition),
            (.permissionDenied, .permissionDenied, .hostPrecondition),
            (.interfaceUnavailable, .wifiInterfaceUnavailable, .hostPrecondition),
            (.associationFailed, .softAPJoinFailed, .linkFailure),
            (.networkNotFound, .softAPHotspotNotFound, .deviceNotFound),
            (.passwordRejected, .hotspotPasswordRejected, .authenticationFailed),
            (.timedOut, .softAPJoinTimeout, .timeout),
            (.restoreFailed, .softAPRestoreFailed, .linkFailure),
        ] as [(WiFiJoinFailureKind, ErrorCode, Provisioning.ExitStatus)])
    func mapsEveryJoinFailureKind(kind: WiFiJoinFailureKind, code: ErrorCode, status: Provisioning.ExitStatus)
        async throws
    {
        let rig = SoftAPRig(SoftAPDeviceCase.security0.configuration, joinerFaults: [.failJoin(kind)])
        let error = try await rig.failure()
        #expect(error.code == code)
        #expect(error.exitStatus == status)
        #expect(!error.hint.isEmpty)
        #expect(error.detail?.contains("\(kind)") == true)
        await rig.expectRestored()
    }

    @Test func aJoinThatTimesOutIsAJoinTimeout() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security0.configuration, joinerFaults: [.timeOutJoin])
        let error = try await rig.failure()
        #expect(error.code == .softAPJoinTimeout)
        #expect(error.exitStatus == .timeout)
        #expect(await rig.joiner.events == [.joinFailed(ssid: SoftAPRig.hotspotSSID, .timedOut)])
        await rig.expectRestored()
    }

    @Test func aRunWithNoTimeLeftNeverJoins() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security0.configuration)
        let error = try await rig.failure(deadline: .zero)
        #expect(error.code == .softAPJoinTimeout)
        #expect(await rig.joiner.events.isEmpty)
    }

    @Test func aFailedRestoreAfterSuccessIsReportedWithTheDevicesAddress() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security1.configuration, joinerFaults: [.failRestore])
        let error = try await rig.failure()
        #expect(error.code == .softAPRestoreFailed)
        #expect(error.exitStatus == .linkFailure)
        #expect(error.message.contains("192.168.1.50"))
        #expect(error.hint.contains("nmcli connection up"))
        #expect(await rig.joiner.activeConnection == nil)
    }

    @Test func aFailedRestoreAfterAnErrorKeepsTheFirstErrorAndReportsTheRestore() async throws {
        let plan = ProtocommDeviceWiFiPlan(outcome: .fail(.networkNotFound))
        let rig = SoftAPRig(.init(security: .security0, wifi: plan), joinerFaults: [.failRestore])
        let error = try await rig.failure()
        #expect(error.code == .protocommWiFiNotFound)
        let restoreFailures = rig.log.events.compactMap { event -> ProvisioningError? in
            if case .restoreFailed(let failure) = event { return failure }
            return nil
        }
        #expect(restoreFailures.map(\.code) == [.softAPRestoreFailed])
    }
}
