import Protocomm
import Testing

/// The device's Wi-Fi state machine through the client API: failure reasons, reset, reprovision,
/// refusals. Security 0 keeps these fast; the cipher paths are covered by ``ProtocommPairTests``.
@Suite struct WiFiProvisioningPairTests {
    private func pair(_ plan: ProtocommDeviceWiFiPlan) throws -> ProtocommSessionPair {
        var pair = ProtocommSessionPair(device: .init(security: .security0, wifi: plan))
        try pair.establish(.security0)
        return pair
    }

    private func join(_ pair: inout ProtocommSessionPair, ssid: String, passphrase: String) throws {
        #expect(try pair.config(.setConfig(ProtocommWiFiCredentials(ssid: ssid, passphrase: passphrase))) == .configSet)
        #expect(try pair.config(.applyConfig) == .configApplied)
    }

    private func finalStatus(_ pair: inout ProtocommSessionPair) throws -> ProtocommWiFiStatus? {
        for _ in 0..<10 {
            guard case .status(let status) = try pair.config(.getStatus) else { return nil }
            if status != .connecting(attemptsRemaining: nil) { return status }
        }
        return nil
    }

    @Test(arguments: [ProtocommWiFiFailureReason.authenticationError, .networkNotFound])
    func reportsTheConfiguredFailureReason(_ reason: ProtocommWiFiFailureReason) throws {
        var pair = try pair(ProtocommDeviceWiFiPlan(connectingPolls: 2, outcome: .fail(reason)))
        try join(&pair, ssid: "HomeNet", passphrase: "whatever")
        for _ in 0..<2 { #expect(try pair.config(.getStatus) == .status(.connecting(attemptsRemaining: nil))) }
        #expect(try pair.config(.getStatus) == .status(.failed(reason)))
        #expect(try pair.config(.getStatus) == .status(.failed(reason)), "a failure keeps being reported")
        #expect(!pair.device.hasFinishedProvisioning)
    }

    @Test func checksPassphrasesLikeARealNetwork() throws {
        let plan = ProtocommDeviceWiFiPlan(
            connectingPolls: 0, outcome: .checkPassphrases(["HomeNet": "correct horse"], ipAddress: "10.0.0.7"))
        var wrong = try pair(plan)
        try join(&wrong, ssid: "HomeNet", passphrase: "wrong horse")
        #expect(try finalStatus(&wrong) == .failed(.authenticationError))

        var missing = try pair(plan)
        try join(&missing, ssid: "NoSuchNet", passphrase: "correct horse")
        #expect(try finalStatus(&missing) == .failed(.networkNotFound))

        var right = try pair(plan)
        try join(&right, ssid: "HomeNet", passphrase: "correct horse")
        guard case .connected(let connection) = try finalStatus(&right) else {
            Issue.record("did not connect")
            return
        }
        #expect(connection.ipAddress == "10.0.0.7")
        #expect(connection.authMode == .wpa2PSK)
    }

    @Test func refusesASecondApplyUntilReset() throws {
        var pair = try pair(ProtocommDeviceWiFiPlan(connectingPolls: 0, outcome: .fail(.authenticationError)))
        try join(&pair, ssid: "HomeNet", passphrase: "wrong")
        #expect(throws: ProtocommError.failureStatus(.internalError)) { try pair.config(.applyConfig) }
        #expect(try finalStatus(&pair) == .failed(.authenticationError))

        #expect(try pair.control(.reset) == .reset)
        #expect(pair.device.wifi.station == .awaitingCredentials)
        #expect(pair.device.wifi.credentials == nil)
        try join(&pair, ssid: "HomeNet", passphrase: "second try")
    }

    @Test func resetIsRefusedUnlessTheConnectionFailed() throws {
        var pair = try pair(ProtocommDeviceWiFiPlan())
        #expect(throws: ProtocommError.failureStatus(.internalError)) { try pair.control(.reset) }
        try join(&pair, ssid: "HomeNet", passphrase: "x")
        #expect(throws: ProtocommError.failureStatus(.internalError)) { try pair.control(.reset) }
    }

    @Test func reprovisionNeedsAutoStopDisabled() throws {
        var stock = try pair(ProtocommDeviceWiFiPlan(connectingPolls: 0))
        try join(&stock, ssid: "HomeNet", passphrase: "x")
        _ = try finalStatus(&stock)
        #expect(stock.device.hasFinishedProvisioning)
        #expect(throws: ProtocommError.failureStatus(.internalError)) { try stock.control(.reprovision) }

        var kept = try pair(ProtocommDeviceWiFiPlan(connectingPolls: 0, allowsReprovisioning: true))
        try join(&kept, ssid: "HomeNet", passphrase: "x")
        guard case .connected = try finalStatus(&kept) else {
            Issue.record("did not connect")
            return
        }
        #expect(!kept.device.hasFinishedProvisioning, "auto-stop disabled keeps the service up")
        #expect(try kept.control(.reprovision) == .reprovision)
        #expect(kept.device.wifi.station == .awaitingCredentials)
        try join(&kept, ssid: "Office", passphrase: "y")
    }

    @Test func applyWithoutCredentialsIsAnInternalError() throws {
        var pair = try pair(ProtocommDeviceWiFiPlan())
        #expect(throws: ProtocommError.failureStatus(.internalError)) { try pair.config(.applyConfig) }
    }
}
