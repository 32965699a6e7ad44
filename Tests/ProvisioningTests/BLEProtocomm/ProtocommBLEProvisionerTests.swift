import DeviceEmulator
import Protocomm
import Provisioning
import Synchronization
import Testing
import Transports

/// The BLE protocomm flow against the in-memory protocomm-over-GATT device: every security scheme, the
/// endpoint lookups, the scan, the reset-and-retry, and the failures a person must be told about. Serialized:
/// the SRP handshakes are CPU-heavy, and in parallel they would starve other suites' deadlines on two cores.
@Suite(.serialized) struct ProtocommBLEProvisionerTests {
    @Test(arguments: SoftAPDeviceCase.all)
    func everySecuritySchemeProvisions(_ device: SoftAPDeviceCase) async throws {
        let rig = ProtocommBLERig(device.configuration)
        let outcome = try await rig.run()
        #expect(outcome.security == device.expectedSecurity)
        #expect(outcome.connection.ipAddress == "192.168.1.50")
        #expect(outcome.endpoints.naming == .userDescriptions)
        #expect(outcome.endpoints.serviceUUID == ProtocommGATTProfile.defaultServiceUUID)
        #expect(outcome.mtu == 23)
        #expect(outcome.credentialAttempts == 1)
        let written = await rig.peripheral.writtenEndpoints
        #expect(written.first == "proto-ver")
        #expect(written.contains("prov-session") && written.last == "prov-config")
    }

    @Test func firmwareWithoutUserDescriptionsIsReachedThroughTheEndpointNumbers() async throws {
        let service = "12345678-1111-2222-3333-444455556666"
        let rig = ProtocommBLERig(
            SoftAPDeviceCase.security1.configuration,
            options: .init(serviceUUID: service, namesEndpoints: false, mtu: 517))
        let outcome = try await rig.run(ProtocommBLERig.request(advertised: [service]))
        #expect(outcome.endpoints.naming == .endpointNumbers)
        #expect(outcome.endpoints.serviceUUID == service)
        #expect(outcome.endpoints.characteristics["prov-session"]?.uuid == "1234ff51-1111-2222-3333-444455556666")
        #expect(outcome.mtu == 517)
    }

    @Test func aServiceNamedByDescriptionsIsFoundWithoutTheAdvertisement() async throws {
        let service = "9f3c0000-aaaa-bbbb-cccc-ddddeeeeffff"
        let rig = ProtocommBLERig(
            SoftAPDeviceCase.security0.configuration, options: .init(serviceUUID: service))
        let outcome = try await rig.run()
        #expect(outcome.endpoints.serviceUUID == service)
        #expect(outcome.endpoints.names.contains("custom-data"))
    }

    @Test func theScanIsPagedThroughEveryResult() async throws {
        let rig = ProtocommBLERig(SoftAPDeviceCase.security1.configuration)
        let outcome = try await rig.run(ProtocommBLERig.request(listsNetworks: true))
        let networks = try #require(outcome.networks)
        #expect(networks.map(\.ssid) == ProtocommDeviceWiFiPlan.sampleNetworks.sorted { $0.rssi > $1.rssi }.map(\.ssid))
        let scans = await rig.peripheral.writtenEndpoints.filter { $0 == "prov-scan" }
        // start, status, then two pages of at most four.
        #expect(scans.count == 4)
    }

    /// A device that joins only with the right passphrase, at 10.0.0.9.
    private static let passphraseChecking = ProtocommDeviceWiFiPlan(
        outcome: .checkPassphrases([SoftAPRig.targetSSID: SoftAPRig.Secrets.wifiPassphrase], ipAddress: "10.0.0.9"))

    @Test func aWrongPasswordIsRetriedWithTheNextOneAfterTheReset() async throws {
        let rig = ProtocommBLERig(SoftAPDeviceCase.security2Patch1.configuration.withWiFi(Self.passphraseChecking))
        let asked = CallCounter()
        let outcome = try await rig.run(ProtocommBLERig.request(passphrase: "a-wrong-passphrase")) {
            asked.increment()
            return Secret(SoftAPRig.Secrets.wifiPassphrase)
        }
        #expect(outcome.connection.ipAddress == "10.0.0.9")
        #expect(outcome.credentialAttempts == 2)
        #expect(asked.value == 1)
        #expect(rig.events.contains(.deviceReset))
        #expect(rig.events.contains(.retryingCredentials(attempt: 2)))
    }

    @Test func retriesStopAfterThreeAttempts() async throws {
        let rig = ProtocommBLERig(SoftAPDeviceCase.security0.configuration.withWiFi(Self.passphraseChecking))
        let asked = CallCounter()
        let error = try await rig.failure(ProtocommBLERig.request(passphrase: "wrong-one")) {
            asked.increment()
            return Secret("still-wrong")
        }
        #expect(error.code == .protocommWiFiWrongPassword)
        #expect(asked.value == 2)
    }

    @Test func withoutTheControlEndpointAWrongPasswordIsNotRetried() async throws {
        var configuration = SoftAPDeviceCase.security0.configuration.withWiFi(
            ProtocommDeviceWiFiPlan(outcome: .fail(.authenticationError)))
        configuration.hasControlEndpoint = false
        let rig = ProtocommBLERig(configuration)
        let asked = CallCounter()
        let error = try await rig.failure {
            asked.increment()
            return Secret(SoftAPRig.Secrets.wifiPassphrase)
        }
        #expect(error.code == .protocommWiFiWrongPassword)
        #expect(error.exitStatus == .wifiJoinFailed)
        #expect(error.hint.contains("power-cycle"))
        #expect(asked.value == 0)
        #expect(rig.events.contains(.deviceResetUnavailable))
    }

    @Test func aNetworkThatIsNotThereIsNotRetriedWithAnotherPassword() async throws {
        let rig = ProtocommBLERig(
            SoftAPDeviceCase.security0.configuration.withWiFi(ProtocommDeviceWiFiPlan(outcome: .fail(.networkNotFound)))
        )
        let asked = CallCounter()
        let error = try await rig.failure {
            asked.increment()
            return Secret(SoftAPRig.Secrets.wifiPassphrase)
        }
        #expect(error.code == .protocommWiFiNotFound)
        #expect(asked.value == 0)
    }

    @Test func aWrongProofOfPossessionIsNamed() async throws {
        let rig = ProtocommBLERig(SoftAPDeviceCase.security1.configuration)
        let error = try await rig.failure(
            ProtocommBLERig.request(security: ProtocommSecurityOptions(proofOfPossession: Secret("not-the-pop"))))
        #expect(error.code == .wrongPoP)
        #expect(error.exitStatus == .authenticationFailed)
        #expect(await rig.peripheral.isClosed)
    }

    @Test func aWrongSRPPasswordIsNamed() async throws {
        let rig = ProtocommBLERig(SoftAPDeviceCase.security2Patch0.configuration)
        let error = try await rig.failure(
            ProtocommBLERig.request(
                security: ProtocommSecurityOptions(srpUsername: SoftAPRig.srpUsername, srpPassword: Secret("nope"))))
        #expect(error.code == .wrongPoP)
        #expect(error.message.contains("SRP"))
    }

    @Test func aDeviceThatNeedsPairingIsAPairingFailureWhenTheLinkStaysUnpaired() async throws {
        let rig = ProtocommBLERig(SoftAPDeviceCase.security0.configuration, options: .init(requiresPairing: true))
        let error = try await rig.failure()
        #expect(error.code == .blePairingFailed)
        #expect(error.exitStatus == .authenticationFailed)
        #expect(error.message.contains(ProtocommBLERig.address))
    }

    @Test func aPairedLinkProvisions() async throws {
        let rig = ProtocommBLERig(SoftAPDeviceCase.security0.configuration, options: .init(requiresPairing: true))
        await rig.peripheral.pair()
        let outcome = try await rig.run()
        #expect(outcome.connection.ipAddress == "192.168.1.50")
    }

    @Test func aPeerWithoutAProvisioningServiceIsNamed() async throws {
        let rig = ProtocommBLERig(
            SoftAPDeviceCase.security0.configuration,
            options: .init(serviceUUID: "0000ffff-0000-1000-8000-00805f9b34fb", namesEndpoints: true))
        let error = try await rig.failure()
        #expect(error.code == .bleServicesMissing)
        #expect(error.exitStatus == .linkFailure)
    }

    @Test func anInvalidPasswordLengthIsRefusedBeforeAnythingIsWritten() async throws {
        let rig = ProtocommBLERig(SoftAPDeviceCase.security0.configuration)
        let error = try await rig.failure(ProtocommBLERig.request(passphrase: String(repeating: "p", count: 65)))
        #expect(error.code == .softAPInvalidPassphrase)
        #expect(await rig.peripheral.writtenEndpoints.isEmpty)
    }
}
