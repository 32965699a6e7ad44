import CryptoPrimitives
import Foundation
import Testing

@testable import Protocomm

/// Errors that mean the caller used the core wrongly, and the limits it enforces up front.
@Suite struct MisuseTests {
    @Test func receivingBeforeStartingIsNamed() throws {
        var random = SeededRandomSource(seed: [1])
        for security in [ProtocommSecurity.security0, .security1(proofOfPossession: "")] {
            var session = try ProtocommSession(security: security, random: &random)
            #expect(throws: ProtocommError.handshakeNotStarted) { try session.receive([]) }
        }
    }

    @Test func receivingAfterTheHandshakeIsNamed() throws {
        var session = ProtocommSecurity0Session()
        _ = session.start()
        _ = try session.receive([0x52, 0x05, 0x08, 0x01, 0xaa, 0x01, 0x00])
        #expect(throws: ProtocommError.handshakeAlreadyFinished) { try session.receive([]) }
    }

    @Test func credentialsAreCheckedAgainstTheDevicesLimits() throws {
        #expect(throws: ProtocommError.invalidSSIDLength(0)) { try ProtocommWiFiCredentials(ssid: "", passphrase: "") }
        #expect(throws: ProtocommError.invalidSSIDLength(33)) {
            try ProtocommWiFiCredentials(ssid: String(repeating: "s", count: 33), passphrase: "")
        }
        #expect(throws: ProtocommError.invalidPassphraseLength(64)) {
            try ProtocommWiFiCredentials(ssid: "s", passphrase: String(repeating: "f", count: 64))
        }
        #expect(throws: ProtocommError.invalidBSSIDLength(5)) {
            try ProtocommWiFiCredentials(ssid: [1], passphrase: [], bssid: [1, 2, 3, 4, 5])
        }
        _ = try ProtocommWiFiCredentials(
            ssid: String(repeating: "s", count: 32), passphrase: String(repeating: "p", count: 63))
        #expect(ProtocommError.invalidSSIDLength(33).origin == .caller)
        #expect(ProtocommError.credentialsMismatch.origin == .peer)
    }

    @Test func deviceAnswersOverLongCredentialsWithInvalidArgument() throws {
        var payload = WireWiFiConfigPayload()
        payload.msg = .typeCmdSetConfig
        var command = WireCmdSetConfig()
        command.ssid = Data(repeating: 0x73, count: 33)
        payload.cmdSetConfig = command
        var wifi = ProtocommDeviceWiFi(plan: ProtocommDeviceWiFiPlan())
        let reply = try wifi.receivedConfigRequest(payload.wireBytes)
        #expect(throws: ProtocommError.failureStatus(.invalidArgument)) {
            try ProtocommWiFiConfigResponse(serializedBytes: reply)
        }
        #expect(wifi.credentials == nil)
    }

    @Test func srpUsernameMustFitTheDevicesField() {
        var random = SeededRandomSource(seed: [2])
        #expect(throws: ProtocommError.invalidUsernameLength(0)) {
            try ProtocommSecurity2Session(username: "", password: "p", patch: nil, random: &random)
        }
    }

    @Test func counterNonceRefusesToWrap() throws {
        var nonce = GCMNonce.counter(sessionID: [UInt8](repeating: 0xab, count: 8), next: UInt32.max)
        #expect(try nonce.next() == [UInt8](repeating: 0xab, count: 8) + [0xff, 0xff, 0xff, 0xff])
        #expect(throws: ProtocommError.nonceCounterExhausted) { try nonce.next() }
    }

    @Test func counterNonceAdvancesOnEveryOperation() throws {
        var nonce = try GCMNonce(patch: .counterNonce, deviceNonce: [1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 1])
        #expect(try nonce.next().suffix(4) == [0, 0, 0, 1])
        #expect(try nonce.next().suffix(4) == [0, 0, 0, 2])
        var fixed = try GCMNonce(patch: .fixedNonce, deviceNonce: Array(0..<16))
        #expect(try fixed.next() == Array(0..<16))
        #expect(try fixed.next() == Array(0..<16))
    }

    @Test(arguments: [
        ("proto-ver", ProtocommEndpoint.protocolVersion), ("prov-session", .session), ("prov-config", .config),
        ("prov-scan", .scan), ("prov-ctrl", .control), ("custom-data", .custom("custom-data")),
    ])
    func endpointNamesRoundTrip(name: String, endpoint: ProtocommEndpoint) {
        #expect(ProtocommEndpoint(name: name) == endpoint)
        #expect(endpoint.name == name)
        #expect(endpoint.path == "/" + name)
        #expect(endpoint.isEncrypted == !["proto-ver", "prov-session"].contains(name))
    }
}

/// Secrets stay out of every textual form a log could use.
@Suite struct RedactionTests {
    private func allRenderings(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), "\(value)", dumped]
    }

    @Test func securityAndCredentialsHideTheirSecrets() throws {
        let values: [Any] = [
            ProtocommSecurity.security1(proofOfPossession: "pop-secret"),
            ProtocommSecurity.security2(username: "wifiprov", password: "pw-secret", patch: .counterNonce),
            ProtocommCredentials(proofOfPossession: "pop-secret", username: "wifiprov", password: "pw-secret"),
            ProtocommWiFiConfigRequest.setConfig(
                try ProtocommWiFiCredentials(ssid: "HomeNet", passphrase: "pw-secret")),
        ]
        for value in values {
            for text in allRenderings(value) {
                #expect(!text.contains("secret"), "\(text)")
            }
        }
        #expect(String(describing: values[3]).contains("HomeNet"))
    }
}
