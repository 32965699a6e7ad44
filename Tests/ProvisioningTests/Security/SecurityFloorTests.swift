import BluFi
import DeviceEmulator
import Protocomm
import Provisioning
import Records
import Testing

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
