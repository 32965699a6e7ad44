import Foundation
import Provisioning
import Testing

/// The catalogue is the contract scripts and the factory line match on: every spelling and exit status is
/// pinned here, every code can be acted on, and every code is produced by some test.
@Suite struct ErrorCodeTests {
    /// Every code and its exit status, in catalogue order. A change here is a change of the contract.
    static let contract = [
        "usage.invalid-option 2",
        "improv.not-supported 2",
        "usage.secret-missing 2",
        "usage.secret-unreadable 2",
        "usage.secret-empty 2",
        "usage.secret-invalid 2",
        "usage.wifi-password-characters 2",
        "records.invalid-location 2",
        "batch.bad-input 2",
        "batch.unknown-lane 2",
        "softap.invalid-ssid 2",
        "softap.invalid-passphrase 2",
        "softap.invalid-hotspot-password 2",
        "protocomm.credentials-missing 2",
        "thread.invalid-dataset 2",
        "ble.several-devices 2",
        "host.no-kernel-bluetooth 3",
        "host.permission-denied 3",
        "host.radio-blocked 3",
        "host.bluetoothd-absent 3",
        "host.no-adapter 3",
        "host.adapter-not-found 3",
        "host.adapter-powered-off 3",
        "host.adapter-blocked 3",
        "host.networkmanager-absent 3",
        "host.no-wifi-device 3",
        "softap.interface-unusable 3",
        "lan.interface-not-found 3",
        "lan.port-in-use 3",
        "lan.socket-failed 3",
        "records.unavailable 3",
        "records.incompatible-schema 3",
        "records.write-failed 3",
        "records.read-failed 3",
        "host.output-failed 3",
        "host.bus-not-answering 3",
        "report.cannot-serve 3",
        "ble.device-not-found 4",
        "improv.already-provisioned 4",
        "softap.hotspot-not-found 4",
        "lan.no-reply 4",
        "lan.device-not-found 4",
        "ble.connect-aborted 5",
        "ble.services-missing 5",
        "ble.refused 5",
        "ble.link-lost 5",
        "blufi.sequence-mismatch 5",
        "blufi.protocol-error 5",
        "improv.rejected 5",
        "improv.protocol-error 5",
        "softap.join-failed 5",
        "softap.restore-failed 5",
        "softap.device-unreachable 5",
        "protocomm.endpoint-missing 5",
        "protocomm.connection-closed 5",
        "protocomm.protocol-error 5",
        "protocomm.outcome-unknown 5",
        "lan.send-failed 5",
        "sc.unreachable 5",
        "blufi.negotiation-failed 6",
        "protocomm.wrong-pop 6",
        "protocomm.session-rejected 6",
        "protocomm.handshake-failed 6",
        "protocomm.unsupported-security 6",
        "softap.hotspot-password-rejected 6",
        "sc.token-rejected 6",
        "ble.pairing-failed 6",
        "security.below-minimum 6",
        "blufi.wifi-wrong-password 7",
        "blufi.wifi-not-found 7",
        "blufi.wifi-join-failed 7",
        "blufi.wifi-join-timeout 9",
        "blufi.wifi-scan-failed 7",
        "improv.wifi-unable-to-connect 7",
        "protocomm.wifi-wrong-password 7",
        "protocomm.wifi-not-found 7",
        "protocomm.wifi-join-failed 7",
        "protocomm.config-rejected 7",
        "network.not-heard 7",
        "network.password-required 7",
        "network.is-open 7",
        "network.enterprise 7",
        "thread.dataset-rejected 7",
        "thread.network-not-found 7",
        "thread.attach-failed 7",
        "blufi.unusable-device-id 8",
        "lan.bad-reply 8",
        "handoff.no-token 8",
        "handoff.no-info 8",
        "handoff.not-confirmed 8",
        "handoff.server-mismatch 8",
        "handoff.rejected 8",
        "handoff.target-is-hub 8",
        "sc.http-error 8",
        "sc.bad-response 8",
        "timeout 9",
        "improv.authorization-timeout 9",
        "softap.join-timeout 9",
        "protocomm.device-timeout 9",
        "protocomm.wifi-connect-timeout 9",
        "thread.attach-timeout 9",
        "sc.timeout 9",
        "batch.incomplete 10",
        "batch.claim-lost 10",
        "interrupted.hangup 129",
        "interrupted 130",
        "interrupted.terminated 143",
    ]

    @Test func theCatalogueIsTheContract() {
        #expect(ErrorCode.allCases.map { "\($0.rawValue) \($0.exitStatus.rawValue)" } == Self.contract)
    }

    @Test func codesAreUniqueAndWellFormed() {
        let spellings = ErrorCode.allCases.map(\.rawValue) + ErrorCode.allCases.compactMap(\.formerSpelling)
        #expect(Set(spellings).count == spellings.count)
        for code in spellings {
            #expect(code.allSatisfy { $0.isLowercase || $0 == "." || $0 == "-" }, "\(code)")
        }
    }

    @Test func everyCodeHasAHintAPersonCanActOn() {
        for code in ErrorCode.allCases {
            #expect(code.hint.count > 20 && code.hint.hasSuffix("."), "\(code): \(code.hint)")
            #expect(code.exitStatus != .success, "\(code)")
        }
    }

    /// Codes renamed so they stop naming an adapter keep their old spelling as the JSON `code_alias`.
    @Test func renamedCodesRememberTheirFormerSpelling() {
        #expect(ErrorCode.hotspotPasswordRejected.formerSpelling == "nm.no-secrets")
        #expect(ErrorCode.networkServiceUnavailable.formerSpelling == "nm.unavailable")
        #expect(ErrorCode.wifiInterfaceUnavailable.formerSpelling == "nm.no-wifi-device")
        #expect(ErrorCode.allCases.allSatisfy { !$0.rawValue.hasPrefix("nm.") })
        #expect(ErrorCode.protocommDeviceTimeout.formerSpelling == "softap.device-timeout")
        #expect(ErrorCode.wrongPoP.formerSpelling == "softap.wrong-pop")
        let protocomm = ErrorCode.allCases.filter { $0.rawValue.hasPrefix("protocomm.") }
        #expect(protocomm.count == 15 && protocomm.allSatisfy { $0.formerSpelling?.hasPrefix("softap.") == true })
    }

    /// A code no test produces is a failure path nobody has seen work: some test other than this file must
    /// name its case (`.caseName`) or expect its spelling (`"code"` or `error[code]`).
    @Test func everyCodeIsProducedBySomeTest() throws {
        let thisFile = URL(fileURLWithPath: #filePath)
        let repository = thisFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let catalogue = try String(
            contentsOf: repository.appendingPathComponent("Sources/Provisioning/ErrorCode.swift"), encoding: .utf8)
        let cases = catalogue.matches(of: #/case (\w+) = "([a-z.-]+)"/#).map {
            (name: String($0.1), spelling: String($0.2))
        }
        #expect(cases.map(\.spelling) == ErrorCode.allCases.map(\.rawValue))
        var mentions = TestSourceMentions()
        let walker = try #require(
            FileManager.default.enumerator(
                at: repository.appendingPathComponent("Tests"), includingPropertiesForKeys: nil))
        for case let file as URL in walker
        where ["swift", "py"].contains(file.pathExtension) && file.lastPathComponent != thisFile.lastPathComponent {
            mentions.read(try Data(contentsOf: file))
        }
        for (name, spelling) in cases {
            #expect(
                mentions.caseNames.contains(name) || mentions.quotedCodes.contains(spelling),
                "no test produces \(spelling)")
        }
    }

    @Test func mentionsAreReadAsTheCatalogueCheckMeansThem() {
        var mentions = TestSourceMentions()
        mentions.read(Data("throw .linkLost)\n x(.ok, 'ble.a-b') error[host.x] \"usage.y\" .partial\" [Up]".utf8))
        #expect(mentions.caseNames == ["linkLost", "ok"])
        #expect(mentions.quotedCodes == ["ble.a-b", "host.x", "usage.y"])
    }

    /// One meaning, one status: every code that says time ran out exits 9, whatever the path.
    @Test func everyTimeoutCodeExitsWithTheTimeoutStatus() {
        for code in ErrorCode.allCases where code.rawValue.contains("timeout") {
            #expect(code.exitStatus == .timeout, "\(code.rawValue) exits \(code.exitStatus.rawValue)")
        }
    }

    @Test func exitStatusesMatchTheContractTable() {
        let table: [Provisioning.ExitStatus: Int32] = [
            .success: 0, .usage: 2, .hostPrecondition: 3, .deviceNotFound: 4, .linkFailure: 5,
            .authenticationFailed: 6, .wifiJoinFailed: 7, .handoffFailed: 8, .timeout: 9, .batchIncomplete: 10,
            .hungUp: 129, .interrupted: 130, .terminated: 143,
        ]
        #expect(table.count == Provisioning.ExitStatus.allCases.count)
        for (status, value) in table {
            #expect(status.rawValue == value)
        }
    }

    @Test func errorRendersCodeAndMessage() {
        let error = ProvisioningError(.wrongPoP, "The device rejected the proof of possession.", hint: "Check the PoP.")
        #expect(error.description == "error[protocomm.wrong-pop]: The device rejected the proof of possession.")
        #expect(error.exitStatus == .authenticationFailed)
    }
}
