import Protocomm
import Testing

/// One kind of device for the pair tests, with the credentials a user would give it.
struct PairCase: Sendable, CustomTestStringConvertible {
    let name: String
    let device: ProtocommDeviceConfiguration
    let credentials: ProtocommCredentials

    var testDescription: String { name }

    static let salt: [UInt8] = Array(0x10...0x1f)
    static let verifier = ProtocommSecurity2Verifier(username: "wifiprov", password: "abcd1234", salt: salt)
    static let srpCredentials = ProtocommCredentials(username: "wifiprov", password: "abcd1234")

    /// Every scheme and patch level, plus the firmware variants that change the security choice.
    static let all: [PairCase] = [
        PairCase(name: "security 0", device: .init(security: .security0), credentials: .init()),
        PairCase(
            name: "security 1 with PoP", device: .init(security: .security1(proofOfPossession: "abcd1234")),
            credentials: .init(proofOfPossession: "abcd1234")),
        PairCase(
            name: "security 1 without PoP (no_pop)", device: .init(security: .security1(proofOfPossession: "")),
            credentials: .init()),
        PairCase(
            name: "security 1, firmware before sec_ver",
            device: .init(
                security: .security1(proofOfPossession: "abcd1234"), reportsSecurityVersion: false,
                reportsPatchVersion: false),
            credentials: .init(proofOfPossession: "abcd1234")),
        PairCase(
            name: "security 2 patch 0", device: .init(security: .security2(verifier: verifier, patch: .fixedNonce)),
            credentials: srpCredentials),
        PairCase(
            name: "security 2 patch 1",
            device: .init(
                security: .security2(verifier: verifier, patch: .counterNonce), managerVersion: "netprov-v1.2"),
            credentials: srpCredentials),
        PairCase(
            name: "security 2 patch 1 without sec_patch_ver (nonce length decides)",
            device: .init(security: .security2(verifier: verifier, patch: .counterNonce), reportsPatchVersion: false),
            credentials: srpCredentials),
    ]

    static let security1 = all[1]
    static let security2Patch1 = all[5]
}
