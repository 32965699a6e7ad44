import CryptoPrimitives
import Protocomm
import Testing

/// Client ↔ emulated device, end to end, for every security scheme and patch level.
@Suite struct ProtocommPairTests {
    @Test(arguments: PairCase.all)
    func provisionsThroughScanConfigureAndPoll(_ pairCase: PairCase) throws {
        var pair = ProtocommSessionPair(device: pairCase.device)
        let info = try pair.versionInfo()
        let security = try info.security(credentials: pairCase.credentials)
        #expect(security.level == pairCase.device.security.level)
        try pair.establish(security)

        #expect(try pair.scan(.start(ProtocommWiFiScanOptions())) == .started)
        #expect(try pair.scan(.status) == .status(finished: true, resultCount: 6))
        guard case .results(let networks) = try pair.scan(.results(startIndex: 0, count: 4)) else {
            Issue.record("no results page")
            return
        }
        #expect(networks.first?.ssidText == "HomeNet")

        let credentials = try ProtocommWiFiCredentials(ssid: "HomeNet", passphrase: "correct horse")
        #expect(try pair.config(.setConfig(credentials)) == .configSet)
        #expect(try pair.config(.applyConfig) == .configApplied)
        #expect(try pair.config(.getStatus) == .status(.connecting(attemptsRemaining: nil)))
        let connected = ProtocommWiFiConnection(
            ipAddress: "192.168.1.50", authMode: .wpa2PSK, ssid: Array("HomeNet".utf8),
            bssid: [0x02, 0x00, 0x5e, 0x10, 0x00, 0x01], channel: 6)
        #expect(try pair.config(.getStatus) == .status(.connected(connected)))
        #expect(pair.device.hasFinishedProvisioning)
        #expect(
            try pair.exchange(Array("hello".utf8), on: .custom("custom-data")) == ProtocommDevice.customEndpointReply)
    }

    @Test func security0WorksWithoutAHandshakeLikeTheDevice() throws {
        var pair = ProtocommSessionPair(device: .init(security: .security0))
        pair.cipher = .plaintext
        #expect(try pair.config(.getStatus) == .status(.connecting(attemptsRemaining: nil)))
    }

    @Test func security0HandshakeBytesMatchEspProv() throws {
        var session = ProtocommSecurity0Session()
        #expect(session.start() == [0x52, 0x03, 0xa2, 0x01, 0x00])
        let reply = try ProtocommSecurity0DeviceSession().receivedRequest(session.start())
        guard case .established(let bytes, let cipher) = reply else {
            Issue.record("security 0 device did not establish")
            return
        }
        #expect(bytes == [0x52, 0x05, 0x08, 0x01, 0xaa, 0x01, 0x00])
        #expect(cipher.level == .security0)
        guard case .established = try session.receive(bytes) else {
            Issue.record("security 0 client did not establish")
            return
        }
    }

    @Test func handshakeRestartsWhenTheClientSendsCommand0Again() throws {
        var pair = ProtocommSessionPair(device: PairCase.security1.device)
        var random = SeededRandomSource(seed: [1])
        var session = try ProtocommSession(security: .security1(proofOfPossession: "abcd1234"), random: &random)
        _ = try pair.post(session.start(), to: .session)
        try pair.establish(.security1(proofOfPossession: "abcd1234"))
        #expect(try pair.config(.getStatus) == .status(.connecting(attemptsRemaining: nil)))
    }

    @Test func newHTTPSessionDropsTheSecuritySession() throws {
        var pair = ProtocommSessionPair(device: PairCase.security1.device)
        try pair.establish(.security1(proofOfPossession: "abcd1234"))
        pair.device.startedNewSession()
        #expect(throws: ProtocommSessionPair.DeviceClosed(response: .closeConnection(.sessionNotEstablished))) {
            try pair.config(.getStatus)
        }
    }

    @Test func controlEndpointIsMissingBeforeESPIDF51() throws {
        var pair = ProtocommSessionPair(device: .init(security: .security0, hasControlEndpoint: false))
        try pair.establish(.security0)
        #expect(throws: ProtocommSessionPair.DeviceClosed(response: .notFound)) { try pair.control(.reset) }
        #expect(throws: ProtocommSessionPair.DeviceClosed(response: .notFound)) {
            try pair.exchange([1], on: .custom("not-registered"))
        }
    }
}
