import BluFi
import CryptoPrimitives
import Testing

/// Client against device session over an in-memory link: every security scheme at the three MTUs
/// that matter (23 = no exchange, 185 = a typical phone, 517 = BlueZ), every mode and outcome.
@Suite struct BluFiSessionPairTests {
    static let schemes: [BluFiSecurityScheme] = [.none, .v1, .v2]
    static let mtus = [23, 185, 517]

    private let station = BluFiStationConfiguration(ssid: "Zhiting-Home", password: "correct horse 9")
    private let softAP = BluFiSoftAPConfiguration(
        ssid: Array("ztprov-setup".utf8), password: Array("12345678".utf8), channel: 6, maxConnections: 3)

    @Test(arguments: schemes, mtus)
    func stationProvisioningJoinsAndExchangesCustomData(scheme: BluFiSecurityScheme, mtu: Int) throws {
        var pair = connectedPair(scheme: scheme, mtu: mtu, deviceID: "zt-0042")
        #expect(pair.client.securityScheme == scheme)
        let farewell = Array(repeating: UInt8(0xA5), count: 300)
        let request = BluFiProvisioningRequest(.station(station), deviceID: .required, customData: farewell)
        try pair.request { client throws(BluFiError) in try client.requestedProvisioning(request) }
        #expect(pair.waits.last == .wifiConnection)
        #expect(pair.device.fields[.staSSID] == station.ssid)
        #expect(pair.device.fields[.staPassword] == station.password)

        try pair.request { client throws(BluFiError) in try client.requestedWiFiStatus() }
        #expect(pair.events.last.flatMap(\.report)?.stationState == .connecting)
        #expect(pair.events.last.flatMap(\.report)?.maximumConnectionRetries == 2)
        pair.completeJoin()

        let result = try #require(pair.events.last.flatMap(\.provisioningResult))
        #expect(result.deviceID == "zt-0042")
        #expect(result.report.stationSSID == station.ssid)
        #expect(result.report.stationBSSID == [0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
        #expect(pair.events.contains(.deviceIDReceived("zt-0042")))
        #expect(pair.deviceEvents.contains(.customDataReceived(farewell)))
        #expect(pair.deviceEvents.allSatisfy { if case .errorSent = $0 { false } else { true } })
        #expect(pair.failure == nil && pair.client.isReady)
    }

    @Test(arguments: schemes, [23, 517])
    func softAPProvisioningConfiguresTheAccessPoint(scheme: BluFiSecurityScheme, mtu: Int) throws {
        var pair = connectedPair(scheme: scheme, mtu: mtu)
        try pair.request { client throws(BluFiError) in try client.requestedProvisioning(.init(.softAP(softAP))) }

        let result = try #require(pair.events.compactMap(\.provisioningResult).first)
        #expect(result.report.operationMode == .softAP)
        #expect(pair.device.operationMode == .softAP)
        #expect(pair.device.fields[.softAPSSID] == softAP.ssid)
        #expect(pair.device.fields[.softAPPassword] == softAP.password)
        #expect(pair.device.fields[.softAPChannel] == [6])
        #expect(pair.device.fields[.softAPMaxConnections] == [3])
        #expect(pair.device.fields[.softAPAuthMode] == [BluFiSoftAPAuthMode.wpa2PSK.rawValue])
        #expect(pair.failure == nil)
    }

    @Test(arguments: schemes)
    func stationAndSoftAPProvisioningWaitsForTheStation(scheme: BluFiSecurityScheme) throws {
        var pair = connectedPair(scheme: scheme, mtu: 185)
        let request = BluFiProvisioningRequest(.stationAndSoftAP(station, softAP))
        try pair.request { client throws(BluFiError) in try client.requestedProvisioning(request) }
        #expect(pair.events.contains { if case .softAPStarted = $0 { true } else { false } } == false)
        #expect(pair.client.awaitedReply == .wifiConnection)
        pair.completeJoin()

        let result = try #require(pair.events.compactMap(\.provisioningResult).first)
        #expect(result.report.operationMode == .stationAndSoftAP)
        #expect(pair.device.fields[.softAPSSID] == softAP.ssid)
        #expect(pair.device.fields[.staSSID] == station.ssid)
    }

    @Test(arguments: [
        (BluFiWiFiOutcome.wrongPassword, BluFiConnectionEndReason.fourWayHandshakeTimeout),
        (.networkNotFound, .noAPFound),
    ])
    func failedJoinIsFoundByPollingAndNamesTheReason(outcome: BluFiWiFiOutcome, reason: BluFiConnectionEndReason) throws
    {
        for scheme in Self.schemes {
            var pair = connectedPair(scheme: scheme, mtu: 23, outcome: outcome)
            try pair.request { client throws(BluFiError) in try client.requestedProvisioning(.init(.station(station))) }
            pair.completeJoin()
            #expect(pair.failure == nil, "a failed join pushes nothing")
            try pair.request { client throws(BluFiError) in try client.requestedWiFiStatus() }

            guard case .wifiConnectionFailed(let report) = pair.failure else {
                Issue.record("expected a Wi-Fi failure, got \(String(describing: pair.failure))")
                continue
            }
            #expect(report.endReason == reason)
            #expect(report.endReason?.suggestsWrongPassword == (outcome == .wrongPassword))
            #expect(report.endReason?.suggestsNetworkNotFound == (outcome == .networkNotFound))
            #expect(throws: BluFiError.sessionEnded) { try pair.client.requestedWiFiList() }
        }
    }

    @Test(arguments: schemes)
    func wifiListArrivesOrTheDeadlineMeansNone(scheme: BluFiSecurityScheme) throws {
        let networks = [
            BluFiAccessPoint(ssid: Array("Zhiting-Home".utf8), rssi: -41),
            BluFiAccessPoint(ssid: Array("Nachbar 5G ünïcode".utf8), rssi: -88),
            BluFiAccessPoint(ssid: [], rssi: -90),
        ]
        var pair = connectedPair(scheme: scheme, mtu: 23, accessPoints: networks)
        try pair.request { client throws(BluFiError) in try client.requestedWiFiList() }
        #expect(pair.events.last == .wifiListReceived(networks))
        #expect(pair.client.isReady)

        var silent = connectedPair(scheme: scheme, mtu: 23)
        try silent.request { client throws(BluFiError) in try client.requestedWiFiList() }
        #expect(silent.waits.last == .wifiList)
        silent.deadlinePasses()
        #expect(silent.events.last == .wifiListReceived([]))
        #expect(silent.client.isReady)
    }

    @Test(arguments: schemes, mtus)
    func customDataTravelsBothWays(scheme: BluFiSecurityScheme, mtu: Int) throws {
        var pair = connectedPair(scheme: scheme, mtu: mtu)
        let toDevice = (0..<600).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let toPhone = (0..<700).map { UInt8(truncatingIfNeeded: $0 * 13) }
        try pair.request { client throws(BluFiError) in try client.requestedCustomData(toDevice) }
        pair.deviceSendsCustomData(toPhone)
        #expect(pair.deviceEvents.last == .customDataReceived(toDevice))
        #expect(pair.events.last == .customDataReceived(toPhone))
        #expect(pair.failure == nil)
    }

    @Test func statusDeauthenticationAndDisconnectFromTheReadyState() throws {
        var pair = connectedPair(scheme: .v1, mtu: 185)
        try pair.request { client throws(BluFiError) in try client.requestedWiFiStatus() }
        #expect(pair.events.last.flatMap(\.report)?.endReason == BluFiConnectionEndReason.none)
        #expect(pair.events.last.flatMap(\.report)?.rssi == -128)

        let station: [UInt8] = [0xAA, 0xBB, 0xCC, 0x00, 0x11, 0x22]
        try pair.request { client throws(BluFiError) in try client.requestedStationDeauthentication([station]) }
        #expect(pair.deviceEvents.last == .deauthenticationRequested(station))

        try pair.request { client throws(BluFiError) in try client.requestedDisconnect() }
        #expect(pair.isFinished && pair.deviceClosedLink)
        #expect(pair.client.disconnected() == [])
        #expect(throws: BluFiError.sessionEnded) { try pair.client.requestedDisconnect() }
    }

    @Test func explicitSchemeOverridesTheVersion() {
        // An IDF 6 build (version 1.4) that kept its V1 callbacks: only a V1 override can talk to it.
        let device = BluFiDeviceConfiguration(version: BluFiVersion(major: 1, minor: 4), security: .v1)
        var pair = BluFiSessionPair(security: .fixed(.v1), device: device)
        pair.connect(mtu: 185)
        #expect(pair.events.contains(.securityEstablished(.v1)))

        var automatic = BluFiSessionPair(security: .automatic, device: device)
        automatic.connect(mtu: 185)
        #expect(automatic.failure == .deviceReportedError(.dhParameter))
    }

    private func connectedPair(
        scheme: BluFiSecurityScheme, mtu: Int, outcome: BluFiWiFiOutcome = .joins, deviceID: String? = nil,
        accessPoints: [BluFiAccessPoint] = []
    ) -> BluFiSessionPair {
        let configuration = BluFiDeviceConfiguration(
            version: BluFiVersion(major: 1, minor: scheme == .v2 ? 4 : 3), security: scheme == .v2 ? .v2 : .v1,
            wifiOutcome: outcome, deviceID: deviceID, accessPoints: accessPoints)
        let choice: BluFiSecurityChoice = scheme == .none ? .fixed(.none) : .automatic
        var pair = BluFiSessionPair(security: choice, device: configuration, seed: UInt8(mtu % 256))
        pair.connect(mtu: mtu)
        #expect(pair.client.isReady)
        #expect(pair.events.last == .sessionReady)
        return pair
    }
}

extension BluFiClientEvent {
    /// The report of a status event, for compact assertions.
    var report: BluFiWiFiReport? {
        if case .wifiStatusReceived(let report) = self { report } else { nil }
    }

    /// The result of a provisioned event.
    var provisioningResult: BluFiProvisioningResult? {
        if case .provisioned(let result) = self { result } else { nil }
    }
}
