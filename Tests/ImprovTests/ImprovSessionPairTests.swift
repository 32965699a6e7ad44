import DeviceEmulator
import Improv
import Testing

/// The client against the emulated device: whole conversations, success and each failure.
@Suite struct ImprovSessionPairTests {
    static let home = try! ImprovCredentials(ssid: Array("HomeNet".utf8), password: Array("correct horse".utf8))
    static let wrong = try! ImprovCredentials(ssid: Array("HomeNet".utf8), password: Array("wrong password".utf8))

    @Test func provisioningReportsTheRedirectURL() {
        var pair = ImprovPair(
            requests: [.sendWiFiSettings(Self.home)], configuration: .init(joinableNetwork: Self.home))
        pair.run()
        #expect(pair.outcome?.error == nil)
        #expect(
            pair.events == [
                .connected(state: .authorized, capabilities: [.identify, .deviceInfo, .scanWiFi, .hostname]),
                .stateChanged(.provisioning), .stateChanged(.provisioned),
                .provisioned(redirectURL: "http://improv-device.local/"),
            ])
        #expect(pair.device.state == .provisioned)
        #expect(pair.device.attemptedCredentials == Self.home)
        #expect(pair.writes.allSatisfy { $0.count <= 20 } && pair.writes.count == 2)
    }

    @Test func provisioningWithoutRedirectURL() {
        var pair = ImprovPair(
            requests: [.sendWiFiSettings(Self.home)], configuration: .init(joinableNetwork: Self.home, redirectURL: nil)
        )
        pair.run()
        #expect(pair.outcome?.error == nil)
        #expect(pair.events.last == .provisioned(redirectURL: nil))
    }

    @Test func wrongPasswordIsUnableToConnect() {
        var pair = ImprovPair(
            requests: [.sendWiFiSettings(Self.wrong)], configuration: .init(joinableNetwork: Self.home))
        pair.run()
        #expect(pair.outcome?.error == .device(.unableToConnect, during: .sendWiFiSettings))
        #expect(pair.device.state == .authorized)
    }

    @Test func authorizationIsAwaitedThenEverythingRuns() {
        var pair = ImprovPair(
            requests: [
                .identify, .deviceInfo, .scanWiFiNetworks, .deviceName(Array("Hall Light".utf8)),
                .hostname(Array("hall-light".utf8)), .sendWiFiSettings(Self.home),
            ],
            configuration: .init(requiresAuthorization: true, joinableNetwork: Self.home))
        pair.run()
        #expect(pair.outcome?.error == nil)
        #expect(
            pair.events == [
                .connected(
                    state: .authorizationRequired, capabilities: [.identify, .deviceInfo, .scanWiFi, .hostname]),
                .identifySent,
                .deviceInfo(
                    ImprovDeviceInfo(
                        firmwareName: "ESPHome", firmwareVersion: "2024.6.0", hardware: "esp32-c3",
                        deviceName: "Kitchen Plug")),
                .networks([
                    ImprovWiFiNetwork(ssid: "HomeNet", rssi: -48, authentication: ["WPA2"]),
                    ImprovWiFiNetwork(ssid: "Guest", rssi: -71, authentication: ["NO"]),
                ]),
                .authorizationRequired, .authorized,
                .deviceName("Hall Light"), .hostname("hall-light"),
                .stateChanged(.provisioning), .stateChanged(.provisioned),
                .provisioned(redirectURL: "http://improv-device.local/"),
            ])
        #expect(pair.device.identifyCount == 1)
        #expect(pair.device.hostname == "hall-light")
        #expect(pair.device.deviceName == "Hall Light")
    }

    @Test func authorizationNeverGivenTimesOut() {
        var pair = ImprovPair(
            requests: [.sendWiFiSettings(Self.home)],
            configuration: .init(requiresAuthorization: true, joinableNetwork: Self.home))
        pair.onAuthorizationWait = { _ in [] }
        pair.run()
        #expect(pair.outcome?.error == .authorizationTimedOut)
        #expect(pair.device.attemptedCredentials == nil)
        #expect(pair.waits == [.authorization])
    }

    @Test func lapsedAuthorizationIsAwaitedAgain() {
        var pair = ImprovPair(
            requests: [.hostname(Array("hall-light".utf8))],
            configuration: .init(requiresAuthorization: true, joinableNetwork: Self.home))
        var presses = 0
        pair.onAuthorizationWait = { device in
            presses += 1
            // The first press lapses before the command arrives; the device answers "not authorized".
            return presses == 1 ? device.authorize() + device.revokeAuthorization() : device.authorize()
        }
        pair.run()
        #expect(pair.outcome?.error == nil)
        #expect(presses == 2)
        #expect(pair.events.filter { $0 == .authorizationRequired }.count == 2)
        #expect(pair.device.hostname == "hall-light")
    }

    @Test func singleResultScanEndsAfterTheQuietPeriod() {
        var pair = ImprovPair(
            requests: [.scanWiFiNetworks], configuration: .init(joinableNetwork: Self.home, scanStyle: .singleResult))
        pair.run()
        #expect(pair.outcome?.error == nil)
        #expect(pair.waits == [.result(.scanWiFiNetworks), .moreNetworks])
        if case .networks(let found) = pair.events.last {
            #expect(found.count == 2)
        } else {
            Issue.record("no networks")
        }
    }

    @Test func emptyScan() {
        var pair = ImprovPair(
            requests: [.scanWiFiNetworks], configuration: .init(joinableNetwork: Self.home, networks: []))
        pair.run()
        #expect(pair.events.last == .networks([]))
        #expect(pair.waits == [.result(.scanWiFiNetworks)])
    }

    @Test func missingCapabilitiesAreRefusedBeforeAnyWrite() {
        for (request, capabilities) in [
            (ImprovRequest.identify, ImprovCapabilities([.deviceInfo, .scanWiFi, .hostname])),
            (.deviceInfo, [.identify]), (.scanWiFiNetworks, [.identify]), (.hostname(nil), [.scanWiFi]),
        ] {
            var pair = ImprovPair(
                requests: [request, .sendWiFiSettings(Self.home)],
                configuration: .init(capabilities: capabilities, joinableNetwork: Self.home))
            pair.run()
            #expect(pair.outcome?.error == .unsupported(request.command))
            #expect(pair.writes.isEmpty)
        }
    }

    @Test func deviceNameOnAnOlderDeviceIsUnsupported() {
        var pair = ImprovPair(
            requests: [.deviceName(Array("X".utf8))],
            configuration: .init(joinableNetwork: Self.home, supportsDeviceName: false))
        pair.run()
        #expect(pair.outcome?.error == .unsupported(.deviceName))
    }

    @Test func hostnameTheDeviceRefuses() throws {
        // The request is built from raw bytes, bypassing the client's own RFC 1123 check, so what is
        // tested is the device's refusal.
        var pair = ImprovPair(
            requests: [.hostname(Array("bad_name".utf8))], configuration: .init(joinableNetwork: Self.home))
        pair.run()
        #expect(pair.outcome?.error == .device(.badHostname, during: .hostname))
    }

    @Test func provisionedDeviceIsReportedAsSuch() {
        var pair = ImprovPair(
            requests: [.sendWiFiSettings(Self.home)], configuration: .init(joinableNetwork: Self.home))
        pair.run()
        var again = ImprovPair(requests: [.identify], configuration: .init(joinableNetwork: Self.home))
        again.device = pair.device
        again.run()
        #expect(again.outcome?.error == .alreadyProvisioned)
    }
}
