import Protocomm
import Testing
import Transports

@testable import Provisioning

/// A protocomm failure has one code whichever transport carries the conversation, and its hint speaks the
/// transport's words: no `softap.*` code, hotspot or SoftAP option on a BLE run.
@Suite struct ProtocommErrorVocabularyTests {
    static let ble = ProtocommPeer.ble(address: "24:0A:C4:00:00:01")
    static let hotspot = ProtocommPeer.hotspot(device: .softAPDefault, interface: "wlan0")

    /// Every phase a conversation can be in, for both security levels that handshake.
    static let phases: [ProtocommPhase] = [
        .describing, .handshake(.security1, awaitingVerdict: false), .handshake(.security1, awaitingVerdict: true),
        .handshake(.security2, awaitingVerdict: false), .handshake(.security2, awaitingVerdict: true),
        .session(ProtocommSecurityUsed(level: .security1, patch: nil, isAutomatic: true, usesProofOfPossession: true)),
        .session(
            ProtocommSecurityUsed(
                level: .security2, patch: .counterNonce, isAutomatic: true, usesProofOfPossession: false)),
        .awaitingConnection(ssid: "HomeNet"), .awaitingAttach(network: "the Thread network"),
    ]

    static let protocolErrors: [ProtocommError] = [
        .deviceProofMismatch, .securitySchemeMismatch(expected: 1, received: 2), .authenticationFailed,
        .malformedMessage("RespGetStatus"), .sessionNotEstablished,
    ]

    /// What the conversation can fail with on `peer`, over every phase and failure kind.
    static func failures(on peer: ProtocommPeer) -> [ProvisioningError] {
        var all: [ProvisioningError] = [.protocommUnsupportedSecurity(version: 3, on: peer)]
        for phase in phases {
            all.append(.protocommConnectionDropped(endpoint: .session, phase: phase, detail: "closed", on: peer))
            for error in protocolErrors {
                all.append(.protocommProtocol(error, endpoint: .config, phase: phase, on: peer))
            }
            for limit in [StepLimit.Ending.own(.seconds(10)), .enclosing(.seconds(20)), .handedDown] {
                all.append(.protocommWaitExpired(endpoint: .scan, phase: phase, limit: limit, on: peer))
            }
        }
        return all
    }

    @Test func aBLERunNeverSpeaksOfTheHotspot() {
        let failures = Self.failures(on: Self.ble)
        #expect(failures.count > 50)
        for failure in failures {
            #expect(!failure.code.rawValue.hasPrefix("softap."), "\(failure)")
            for word in ["--security", "--device-address", "hotspot", "--ap-ssid"] {
                #expect(!"\(failure.message) \(failure.hint)".contains(word), "\(failure.code): \(failure.hint)")
            }
        }
        #expect(failures.contains { $0.hint.contains("--sec-ver") })
    }

    @Test func bothTransportsGiveTheSameFailureTheSameCode() {
        let codes = zip(Self.failures(on: Self.ble), Self.failures(on: Self.hotspot)).map { ($0.code, $1.code) }
        #expect(codes.allSatisfy { $0 == $1 }, "\(codes.filter { $0 != $1 })")
        #expect(Self.failures(on: Self.hotspot).contains { $0.hint.contains("--security") })
    }
}
