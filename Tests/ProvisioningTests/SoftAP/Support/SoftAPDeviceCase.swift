import Protocomm
import Provisioning
import Testing

/// One kind of SoftAP device the flow must provision, and what the flow should report about it.
struct SoftAPDeviceCase: Sendable, CustomTestStringConvertible {
    let name: String
    let configuration: ProtocommDeviceConfiguration
    let expectedSecurity: ProtocommSecurityUsed

    var testDescription: String { name }

    static let security0 = SoftAPDeviceCase(
        name: "security 0", configuration: .init(security: .security0),
        expectedSecurity: .init(level: .security0, patch: nil, isAutomatic: true, usesProofOfPossession: false))
    static let security1 = SoftAPDeviceCase(
        name: "security 1 with PoP",
        configuration: .init(security: .security1(proofOfPossession: SoftAPRig.Secrets.proofOfPossession)),
        expectedSecurity: .init(level: .security1, patch: nil, isAutomatic: true, usesProofOfPossession: true))
    static let security1WithoutPoP = SoftAPDeviceCase(
        name: "security 1 without PoP", configuration: .init(security: .security1(proofOfPossession: "")),
        expectedSecurity: .init(level: .security1, patch: nil, isAutomatic: true, usesProofOfPossession: false))
    static let security2Patch0 = SoftAPDeviceCase(
        name: "security 2 patch 0",
        configuration: .init(security: .security2(verifier: SoftAPRig.verifier, patch: .fixedNonce)),
        expectedSecurity: .init(level: .security2, patch: .fixedNonce, isAutomatic: true, usesProofOfPossession: false))
    static let security2Patch1 = SoftAPDeviceCase(
        name: "security 2 patch 1",
        configuration: .init(
            security: .security2(verifier: SoftAPRig.verifier, patch: .counterNonce), managerVersion: "netprov-v1.2"),
        expectedSecurity: .init(
            level: .security2, patch: .counterNonce, isAutomatic: true, usesProofOfPossession: false))

    static let all = [security0, security1, security1WithoutPoP, security2Patch0, security2Patch1]
}
