import CryptoPrimitives
import Protocomm
import TestSupport
import Testing

/// Bad bytes from the peer become named errors: malformed protobuf, truncated or altered
/// ciphertext, status and enum values this build does not know.
@Suite struct MalformedInputTests {
    /// A field-1 length-delimited record that claims more bytes than follow.
    static let truncatedProtobuf: [UInt8] = [0x0a, 0x05, 0x01]

    @Test func malformedHandshakeReplyNamesTheMessage() throws {
        var random = SeededRandomSource(seed: [1])
        var session = try ProtocommSession(security: .security1(proofOfPossession: ""), random: &random)
        _ = session.start()
        #expect(throws: ProtocommError.malformedMessage("SessionData")) { try session.receive(Self.truncatedProtobuf) }
    }

    @Test func malformedHandshakeRequestClosesTheConnection() {
        var device = ProtocommDevice(configuration: PairCase.security1.device, random: SeededRandomSource(seed: [2]))
        #expect(
            device.receivedRequest(Self.truncatedProtobuf, on: .session)
                == .closeConnection(.malformedMessage("SessionData")))
    }

    @Test func malformedWiFiPayloadsNameTheirMessage() {
        #expect(throws: ProtocommError.malformedMessage("WiFiConfigPayload")) {
            try ProtocommWiFiConfigResponse(serializedBytes: Self.truncatedProtobuf)
        }
        #expect(throws: ProtocommError.malformedMessage("WiFiScanPayload")) {
            try ProtocommWiFiScanResponse(serializedBytes: Self.truncatedProtobuf)
        }
        #expect(throws: ProtocommError.malformedMessage("WiFiCtrlPayload")) {
            try ProtocommWiFiControlResponse(serializedBytes: Self.truncatedProtobuf)
        }
    }

    @Test func malformedRequestAfterTheHandshakeClosesTheConnection() throws {
        var pair = ProtocommSessionPair(device: PairCase.security1.device)
        try pair.establish(.security1(proofOfPossession: "abcd1234"))
        #expect(
            throws: ProtocommSessionPair.DeviceClosed(
                response: .closeConnection(.malformedMessage("WiFiConfigPayload")))
        ) {
            try pair.exchange(Self.truncatedProtobuf, on: .config)
        }
    }

    @Test func unknownMessageTypeClosesTheConnection() throws {
        var pair = ProtocommSessionPair(device: .init(security: .security0))
        try pair.establish(.security0)
        // msg = 9 is no WiFiConfigPayload type; the device dispatches on msg and closes.
        #expect(
            throws: ProtocommSessionPair.DeviceClosed(
                response: .closeConnection(
                    .unexpectedMessage(expected: "a WiFiConfigPayload command", received: "UNRECOGNIZED(9)")))
        ) {
            try pair.exchange([0x08, 0x09], on: .config)
        }
    }

    @Test(arguments: [0, 1, 15])
    func truncatedSecurity2CiphertextIsNamed(length: Int) throws {
        var pair = ProtocommSessionPair(device: PairCase.security2Patch1.device)
        try pair.establish(.security2(username: "wifiprov", password: "abcd1234", patch: nil))
        var cipher = try #require(pair.cipher)
        #expect(throws: ProtocommError.truncatedCiphertext(length: length)) {
            try cipher.decrypt([UInt8](repeating: 0, count: length))
        }
        if length > 0 {
            #expect(
                pair.device.receivedRequest([UInt8](repeating: 0, count: length), on: .config)
                    == .closeConnection(.truncatedCiphertext(length: length)))
        }
    }

    @Test func alteredSecurity2CiphertextFailsAuthentication() throws {
        var pair = ProtocommSessionPair(device: PairCase.security2Patch1.device)
        try pair.establish(.security2(username: "wifiprov", password: "abcd1234", patch: nil))
        var cipher = try #require(pair.cipher)
        var body = try cipher.encrypt(ProtocommWiFiConfigRequest.getStatus.serializedBytes())
        body[0] ^= 0x80
        #expect(pair.device.receivedRequest(body, on: .config) == .closeConnection(.authenticationFailed))
    }

    @Test func truncatedSecurity1CiphertextSurfacesAsMalformedProtobuf() throws {
        // Security 1 has no MAC: a cut-off body decrypts to a cut-off protobuf.
        var pair = ProtocommSessionPair(device: PairCase.security1.device)
        try pair.establish(.security1(proofOfPossession: "abcd1234"))
        let credentials = try ProtocommWiFiCredentials(ssid: "HomeNet", passphrase: "correct horse")
        var cipher = try #require(pair.cipher)
        let body = try cipher.encrypt(ProtocommWiFiConfigRequest.setConfig(credentials).serializedBytes())
        #expect(
            pair.device.receivedRequest(Array(body.prefix(10)), on: .config)
                == .closeConnection(.malformedMessage("WiFiConfigPayload")))
    }

    @Test func unknownStatusInAResponseIsNamedNotSuccess() {
        // WiFiScanPayload{msg = RespScanStart, status = 9, resp_scan_start{}}
        #expect(throws: ProtocommError.failureStatus(.unrecognized(9))) {
            try ProtocommWiFiScanResponse(serializedBytes: [0x08, 0x01, 0x10, 0x09, 0x5a, 0x00])
        }
        // WiFiConfigPayload{msg = RespSetConfig, resp_set_config{status = 200}}
        #expect(throws: ProtocommError.failureStatus(.unrecognized(200))) {
            try ProtocommWiFiConfigResponse(serializedBytes: [0x08, 0x03, 0x6a, 0x03, 0x08, 0xc8, 0x01])
        }
    }

    @Test func unknownStatusInAHandshakeReplyIsNamed() throws {
        var random = SeededRandomSource(seed: [3])
        var session = try ProtocommSession(security: .security1(proofOfPossession: ""), random: &random)
        _ = session.start()
        // SessionData{sec_ver = 1, sec1{msg = Session_Response0, sr0{status = 8}}}
        let reply: [UInt8] = [0x10, 0x01, 0x5a, 0x07, 0x08, 0x01, 0xaa, 0x01, 0x02, 0x08, 0x08]
        #expect(throws: ProtocommError.failureStatus(.unrecognized(8))) { try session.receive(reply) }
    }

    @Test func authModesAboveSevenSurviveParsingAndReencoding() throws {
        // protoc --encode=WiFiScanPayload: RespScanResult with ssid "x", rssi -50, auth 14 (WPA3-Enterprise)
        // and ssid "y", auth 42 (unknown to everyone).
        let bytes = [UInt8](hex: "08057a1d0a120a0178100118ceffffffffffffffff01280e0a070a01791002282a")
        let networks = [
            ProtocommWiFiNetwork(ssid: [0x78], channel: 1, rssi: -50, bssid: [], authMode: .wpa3Enterprise),
            ProtocommWiFiNetwork(ssid: [0x79], channel: 2, rssi: 0, bssid: [], authMode: .init(rawValue: 42)),
        ]
        #expect(try ProtocommWiFiScanResponse(serializedBytes: bytes) == .results(networks))
        #expect(ProtocommWiFiScanResponse.results(networks).serializedBytes() == bytes)
        #expect(ProtocommWiFiAuthMode(rawValue: 42).description == "auth mode 42")
        #expect(ProtocommWiFiAuthMode.wpa3Enterprise.description == "WPA3-Enterprise")
    }

    @Test func unknownStationStateAndFailureReasonAreKept() throws {
        // RespGetStatus{sta_state = 7}
        #expect(
            try ProtocommWiFiConfigResponse(serializedBytes: [0x08, 0x01, 0x5a, 0x02, 0x10, 0x07])
                == .status(.unrecognized(state: 7)))
        // RespGetStatus{sta_state = ConnectionFailed, fail_reason = 5}
        #expect(
            try ProtocommWiFiConfigResponse(serializedBytes: [0x08, 0x01, 0x5a, 0x04, 0x10, 0x03, 0x50, 0x05])
                == .status(.failed(.unrecognized(5))))
    }

    @Test func connectionFailedWithoutAReasonReadsAsAuthError() throws {
        #expect(
            try ProtocommWiFiConfigResponse(serializedBytes: [0x08, 0x01, 0x5a, 0x02, 0x10, 0x03])
                == .status(.failed(.authenticationError)))
    }

    @Test func attemptFailedCarriesTheRemainingAttempts() throws {
        // RespGetStatus{sta_state = Connecting, attempt_failed{attempts_remaining = 2}}
        #expect(
            try ProtocommWiFiConfigResponse(serializedBytes: [
                0x08, 0x01, 0x5a, 0x06, 0x10, 0x01, 0x62, 0x02, 0x08, 0x02,
            ])
                == .status(.connecting(attemptsRemaining: 2)))
    }

    @Test func responseToAnotherRequestIsNamed() {
        let applied = ProtocommWiFiConfigResponse.configApplied.serializedBytes()
        #expect(
            throws: ProtocommError.unexpectedMessage(expected: "typeRespGetStatus", received: "typeRespApplyConfig")
        ) {
            try ProtocommWiFiConfigRequest.getStatus.response(from: applied)
        }
    }
}
