import DeviceEmulator
import Protocomm
import Provisioning
import Testing
import Transports

/// The SoftAP flow against the emulated device on paths that work: every security scheme, the
/// scan list, the progress it reports and what it returns.
@Suite struct SoftAPProvisionerTests {
    static let connection = ProtocommDeviceConnection(
        ipAddress: "192.168.1.50", ssid: SoftAPRig.targetSSID, bssid: "02:00:5e:10:00:01", channel: 6,
        authMode: .wpa2PSK)

    @Test(arguments: SoftAPDeviceCase.all)
    func provisionsEverySecurityScheme(_ deviceCase: SoftAPDeviceCase) async throws {
        let rig = SoftAPRig(deviceCase.configuration)
        let outcome = try await rig.run()
        #expect(outcome.connection == Self.connection)
        #expect(outcome.security == deviceCase.expectedSecurity)
        #expect(outcome.deviceID == SoftAPRig.deviceID)
        #expect(outcome.deviceVersion == deviceCase.configuration.versionInfo)
        #expect(outcome.hotspot.bssid == SoftAPRig.hotspotBSSID)
        #expect(outcome.networks == nil)
        let credentials = await rig.device.device.wifi.credentials
        #expect(credentials?.ssid == Array(SoftAPRig.targetSSID.utf8))
        #expect(credentials?.passphrase == Array(SoftAPRig.Secrets.wifiPassphrase.utf8))
        #expect(await rig.device.device.hasFinishedProvisioning)
        await rig.expectRestored()
    }

    @Test func reportsEachStepInOrder() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security1.configuration)
        _ = try await rig.run()
        let hotspot = JoinedWiFiNetwork(
            interfaceName: "wlan0", ssid: SoftAPRig.hotspotSSID, bssid: SoftAPRig.hotspotBSSID,
            localAddress: "192.168.4.2", prefixLength: 24, gateway: "192.168.4.1")
        #expect(
            rig.log.events == [
                .joiningHotspot(ssid: SoftAPRig.hotspotSSID),
                .joinedHotspot(hotspot),
                .protocomm(.deviceDescribed(SoftAPDeviceCase.security1.configuration.versionInfo)),
                .protocomm(.securityChosen(SoftAPDeviceCase.security1.expectedSecurity)),
                .protocomm(.sessionEstablished(.security1)),
                .protocomm(.credentialsSent(ssid: SoftAPRig.targetSSID)),
                .protocomm(.credentialsApplied),
                .protocomm(.deviceConnecting(attemptsRemaining: nil)),
                .protocomm(.deviceConnected(Self.connection)),
                .leavingHotspot(ssid: SoftAPRig.hotspotSSID),
                .leftHotspot(ssid: SoftAPRig.hotspotSSID),
            ])
    }

    @Test func reportsConnectingOnlyWhenTheAnswerChanges() async throws {
        let plan = ProtocommDeviceWiFiPlan(connectingPolls: 5)
        let rig = SoftAPRig(.init(security: .security0, wifi: plan))
        _ = try await rig.run()
        let connecting = rig.log.events.filter {
            if case .protocomm(.deviceConnecting) = $0 { return true }
            return false
        }
        #expect(connecting == [.protocomm(.deviceConnecting(attemptsRemaining: nil))])
        let polls = await rig.device.exchanges.filter { $0.endpoint == "prov-config" }.count
        #expect(polls == 2 + 6)
    }

    @Test func listsTheNetworksTheDeviceSeesPageByPage() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security2Patch1.configuration)
        let outcome = try await rig.run(SoftAPRig.request(listsNetworks: true))
        let strongestFirst = ProtocommDeviceWiFiPlan.sampleNetworks.sorted { $0.rssi > $1.rssi }
        #expect(outcome.networks == strongestFirst)
        #expect(rig.log.events.contains(.protocomm(.scanningNetworks)))
        #expect(rig.log.events.contains(.protocomm(.networksListed(strongestFirst))))
        // Start, status, then six results in pages of four.
        let scans = await rig.device.exchanges.filter { $0.endpoint == "prov-scan" }
        #expect(scans.count == 4)
        #expect(outcome.timings.map(\.step) == [.join, .version, .session, .scan, .configure, .connect, .leave])
    }

    @Test func waitsForANonBlockingScanToFinish() async throws {
        let plan = ProtocommDeviceWiFiPlan(scanStatusPollsBeforeFinished: 3)
        let rig = SoftAPRig(.init(security: .security1(proofOfPossession: ""), wifi: plan))
        let outcome = try await rig.run(SoftAPRig.request(listsNetworks: true))
        #expect(outcome.networks?.count == ProtocommDeviceWiFiPlan.sampleNetworks.count)
    }

    @Test func timesEveryStepItRan() async throws {
        let rig = SoftAPRig(SoftAPDeviceCase.security0.configuration)
        let outcome = try await rig.run()
        #expect(outcome.timings.map(\.step) == [.join, .version, .session, .configure, .connect, .leave])
        #expect(outcome.timings.allSatisfy { $0.duration >= .zero })
    }

    @Test func honoursAForcedSchemeAndPatch() async throws {
        let device = SoftAPDeviceCase.security2Patch1.configuration
        var quietDevice = device
        quietDevice.reportsSecurityVersion = false
        quietDevice.reportsPatchVersion = false
        let rig = SoftAPRig(quietDevice)
        var security = SoftAPRig.allCredentials
        security.level = .security2
        security.patch = .counterNonce
        let outcome = try await rig.run(SoftAPRig.request(security: security))
        #expect(
            outcome.security
                == ProtocommSecurityUsed(
                    level: .security2, patch: .counterNonce, isAutomatic: false, usesProofOfPossession: false))
    }

    @Test func passesTheHotspotPasswordToTheJoiner() async throws {
        let rig = SoftAPRig(
            SoftAPDeviceCase.security0.configuration, hotspotPassword: SoftAPRig.Secrets.hotspotPassword)
        _ = try await rig.run(SoftAPRig.request(hotspotPassword: SoftAPRig.Secrets.hotspotPassword))
        let sent = await rig.joiner.lastRequest
        #expect(sent?.passphrase == SoftAPRig.Secrets.hotspotPassword)
        #expect(sent?.ssid == SoftAPRig.hotspotSSID)
        await rig.expectRestored()
    }

    @Test(
        arguments: [
            ("24:0A:C4:1A:2B:3C", "240ac41a2b3c"),
            ("24:a:c4:1a:2b:3c", "240ac41a2b3c"),
            ("", nil),
            ("24:0A:C4:1A:2B", nil),
            ("24:0A:C4:1A:2B:3C:4D", nil),
            ("24:0G:C4:1A:2B:3C", nil),
            ("240AC41A2B3C", nil),
            ("24::C4:1A:2B:3C", nil),
        ] as [(String, String?)])
    func derivesTheDeviceIDFromTheBSSID(bssid: String, expected: String?) {
        let network = JoinedWiFiNetwork(
            interfaceName: "wlan0", ssid: "MH-1", bssid: bssid, localAddress: nil, prefixLength: nil, gateway: nil)
        #expect(network.zhitingDeviceID == expected)
    }
}
