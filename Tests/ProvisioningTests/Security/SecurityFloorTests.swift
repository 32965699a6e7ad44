import BluFi
import DeviceEmulator
import Improv
import Logging
import Protocomm
import Provisioning
import Records
import Synchronization
import Testing
import Transports

/// `--min-security` as the flows apply it: the decision over every protocol's security and every level, and
/// that a refused device received nothing.
@Suite struct SecurityFloorTests {
    static let everySecurity = ProvisioningSecurity.Scheme.allCases.flatMap { scheme in
        [false, true].map { ProvisioningSecurity(scheme, linkEncrypted: $0) }
    }

    @Test(arguments: everySecurity, SecurityLevel.allCases)
    func aFloorAdmitsExactlyTheSecurityAtOrAboveIt(security: ProvisioningSecurity, floor: SecurityLevel) {
        let admitted = Result { () throws(ProvisioningError) in try floor.admit(security) }
        switch admitted {
        case .success: #expect(security.level >= floor)
        case .failure(let error):
            #expect(security.level < floor)
            #expect(error.code == .securityBelowMinimum && error.exitStatus == .authenticationFailed)
            #expect(error.message.contains(security.summary) && error.message.contains(floor.rawValue))
        }
    }

    @Test func eachProtocolsNegotiationMapsToItsScheme() {
        #expect(ProvisioningSecurity(BluFiSecurityScheme.none).level == .none)
        #expect(ProvisioningSecurity(BluFiSecurityScheme.v1).scheme == .bluFiV1)
        #expect(ProvisioningSecurity(BluFiSecurityScheme.v2).level == .encrypted)
        for deviceCase in SoftAPDeviceCase.all {
            let used = deviceCase.expectedSecurity
            let expected: ProvisioningSecurity.Scheme =
                switch used.level {
                case .security0: .protocomm0
                case .security1: used.usesProofOfPossession ? .protocomm1WithPoP : .protocomm1
                case .security2: .protocomm2
                }
            #expect(ProvisioningSecurity(used).scheme == expected, "\(deviceCase.name)")
        }
    }

    /// BluFi: none is plaintext, V1 and V2 encrypt but prove nothing; a session below the floor ends before
    /// the settings are sent.
    @Test(arguments: [BluFiSecurityScheme.none, .v1, .v2], SecurityLevel.allCases)
    func bluFiBelowTheFloorReceivesNoSettings(scheme: BluFiSecurityScheme, floor: SecurityLevel) async throws {
        let ble = EmulatedBLE(
            device: EmulatedBLE.device(scheme), security: EmulatedBLE.choice(for: scheme), minimumSecurity: floor)
        guard ProvisioningSecurity(scheme).level < floor else {
            #expect(try await ble.provision().security == scheme)
            return
        }
        let error = await ble.failure { try await $0.provision() }
        #expect(error?.code == .securityBelowMinimum)
        let device = await ble.link.device
        #expect(device.fields[.staSSID] == nil && device.fields[.staPassword] == nil)
        #expect(!ble.leaksSecret(error))
    }

    /// protocomm over SoftAP: security 0 is plaintext, security 1 without a PoP encrypts but proves nothing;
    /// a device below the floor is left before the handshake, with no credentials.
    @Test(arguments: SoftAPDeviceCase.all, SecurityLevel.allCases)
    func protocommBelowTheFloorReceivesNoCredentials(deviceCase: SoftAPDeviceCase, floor: SecurityLevel)
        async throws
    {
        let rig = SoftAPRig(deviceCase.configuration)
        var security = SoftAPRig.allCredentials
        security.minimum = floor
        let request = SoftAPRig.request(security: security)
        guard ProvisioningSecurity(deviceCase.expectedSecurity).level < floor else {
            #expect(try await rig.run(request).security == deviceCase.expectedSecurity)
            return
        }
        let error = try await rig.failure(request)
        #expect(error.code == .securityBelowMinimum, "\(error)")
        #expect(await rig.device.device.wifi.credentials == nil)
        await rig.expectRestored()
    }
}

/// Improv sends its settings in plaintext: any floor above none refuses it before connecting, whether or not
/// the device asks for authorization.
@Suite struct ImprovSecurityFloorTests {
    /// A link that counts its connections and fails each, so a run that gets that far ends there.
    final class CountingLink: BLELink {
        let peer: BLEPeer
        let connections = Mutex(0)

        init(advertising state: ImprovState) {
            let key = BLEProtocol.improv.serviceDataUUIDs.first ?? ""
            peer = BLEPeer(
                address: "24:0A:C4:00:75:01", name: "improv", serviceUUIDs: [BLEProtocol.improv.serviceUUID],
                serviceData: [key: ImprovServiceData(state: state, capabilities: []).encoded])
        }

        func connected<Result: Sendable>(
            _ policy: BLEConnectionPolicy, _ body: @Sendable (any GATTConnection) async throws -> Result
        ) async throws -> Result {
            connections.withLock { $0 += 1 }
            throw CancellationError()
        }
    }

    @Test(arguments: [ImprovState.authorizationRequired, .authorized], SecurityLevel.allCases)
    func anyFloorAboveNoneRefusesImprovBeforeConnecting(state: ImprovState, floor: SecurityLevel) async {
        let link = CountingLink(advertising: state)
        let flow = ImprovBLEFlow(
            settings: { _ in ImprovSettings(ssid: "Factory", password: Secret("pw-Factory-5521")) },
            timeouts: ImprovTimeouts(), minimumSecurity: floor,
            logger: Logger(label: "test"), progress: { _ in })
        do {
            _ = try await flow.run(with: link, deadline: .now + .seconds(60))
            Issue.record("the run ended without an error")
        } catch let error as ProvisioningError {
            #expect(floor > .none && error.code == .securityBelowMinimum, "\(error)")
            let asked = state == .authorizationRequired ? "Improv with authorization" : "Improv without authorization"
            #expect(error.message.contains(asked), "\(error)")
            #expect(link.connections.withLock { $0 } == 0)
        } catch {
            #expect(floor == .none && error is CancellationError, "\(error)")
            #expect(link.connections.withLock { $0 } == 1)
        }
    }
}
