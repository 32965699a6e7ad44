import Protocomm
import Testing
import Transports

@testable import Provisioning

/// The SoftAP failures the emulator cannot produce, pinned at the mapping: code, exit status, and a
/// message and hint a person can act on.
@Suite struct SoftAPErrorMappingTests {
    private struct ExchangeFailure: ProtocommExchangeFailure, CustomStringConvertible {
        let exchangeFailureKind: ProtocommExchangeFailureKind
        var description: String { "exchange failure \(exchangeFailureKind)" }
    }

    private let link = ProtocommPeer.hotspot(device: .softAPDefault, interface: "wlan0")

    private func expect(
        _ error: ProvisioningError, _ code: ErrorCode, _ status: Provisioning.ExitStatus, mentioning text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error.code == code, sourceLocation: sourceLocation)
        #expect(error.exitStatus == status, sourceLocation: sourceLocation)
        #expect(error.description.contains(text), "\(error)", sourceLocation: sourceLocation)
        #expect(!error.hint.isEmpty, sourceLocation: sourceLocation)
    }

    @Test func anInterfaceThatCannotCarryTrafficIsAHostProblem() {
        let error = ProvisioningError.protocommExchange(
            ExchangeFailure(exchangeFailureKind: .interfaceUnavailable), endpoint: .session,
            phase: .handshake(.security1, awaitingVerdict: false), on: link)
        expect(error, .softAPInterfaceUnusable, .hostPrecondition, mentioning: "wlan0")
        #expect(error.code.rawValue == "softap.interface-unusable")
    }

    @Test func aReplyThatIsNotProtocommIsAProtocolError() {
        let error = ProvisioningError.protocommExchange(
            ExchangeFailure(exchangeFailureKind: .unexpectedResponse), endpoint: .config,
            phase: .handshake(.security0, awaitingVerdict: false), on: link)
        expect(error, .protocommProtocolError, .linkFailure, mentioning: "prov-config")
        #expect(error.code.rawValue == "protocomm.protocol-error")
    }

    @Test func aProofMismatchIsAFailedHandshake() {
        let error = ProvisioningError.protocommProtocol(
            .deviceProofMismatch, endpoint: .session, phase: .handshake(.security2, awaitingVerdict: false), on: link)
        expect(error, .protocommHandshakeFailed, .authenticationFailed, mentioning: "proof")
        #expect(error.code.rawValue == "protocomm.handshake-failed")
    }

    @Test func aSecurityVersionWeDoNotSpeakIsAnAuthenticationFailure() {
        let error = ProvisioningError.protocommUnsupportedSecurity(version: 3, on: link)
        expect(error, .protocommUnsupportedSecurity, .authenticationFailed, mentioning: "3")
        #expect(error.code.rawValue == "protocomm.unsupported-security")
    }

    @Test func refusedSettingsMeanTheDeviceCouldNotJoin() {
        let error = ProvisioningError.protocommConfigRejected(.invalidArgument, applying: false)
        expect(error, .protocommConfigRejected, .wifiJoinFailed, mentioning: "refused")
        #expect(error.code.rawValue == "protocomm.config-rejected")
    }
}
