import NetworkManager
import TestSupport
import Testing
import Transports

/// The joiner against the harness's NetworkManager mock on a private bus: joins that work, and what
/// the host looks like during and after them.
///
/// NetworkManager is compiled optimised even in debug builds (Package.swift), so these joins also check
/// that libnm work stays on the libnm thread as it ships; the time limit names a join that hangs.
@Suite(.enabled(if: MockNMTools.hasNMMock, .init(rawValue: MockNM.skipMessage)), .timeLimit(.minutes(1)))
struct MockNMJoinTests {
    @Test func joinsWithTheRightPassphraseAndRestoresThePreviousConnection() async throws {
        try await NMSoftAPMock.with(MockNM.parameters()) { mock in
            let joiner = try MockNM.joiner(mock)
            let network = try await joiner.join(MockNM.request())
            #expect(
                network
                    == JoinedWiFiNetwork(
                        interfaceName: MockNM.interface, ssid: MockNM.ssid, bssid: "24:0A:C4:1A:2B:3C",
                        localAddress: "192.168.4.2", prefixLength: 24, gateway: "192.168.4.1"))
            let joined = try await mock.state()
            #expect(joined.onlyActive("ztprov-ZT_1A2B3C"))
            #expect(joined.activeConnections.first?.boundTo != nil)
            #expect(joined.temporaryProfiles.map(\.persist) == ["volatile"])
            try await joiner.leave(network)
            try await MockNM.expectRestored(mock)
        }
    }

    @Test func sendsTheProfileAndOptionsToAddAndActivateConnection2() async throws {
        try await NMSoftAPMock.with(MockNM.parameters()) { mock in
            let joiner = try MockNM.joiner(mock)
            try await joiner.withJoinedNetwork(MockNM.request()) { _ in }
            let arguments = try #require(try await mock.state().arguments(of: "AddAndActivateConnection2"))
            let profile = try #require(arguments[0])
            #expect(profile["connection"]?["id"] == .string("ztprov-ZT_1A2B3C"))
            #expect(profile["connection"]?["autoconnect"] == .bool(false))
            #expect(profile["connection"]?["auth-retries"] == .number(1))
            #expect(profile["connection"]?["interface-name"] == .string(MockNM.interface))
            #expect(profile["802-11-wireless"]?["ssid"] == .string(MockNM.ssid))
            #expect(profile["802-11-wireless"]?["assigned-mac-address"] == .string("permanent"))
            #expect(profile["802-11-wireless-security"]?["key-mgmt"] == .string("wpa-psk"))
            #expect(profile["802-11-wireless-security"]?["psk"] == .string(MockNM.passphrase))
            #expect(profile["ipv4"]?["method"] == .string("auto"))
            #expect(profile["ipv4"]?["never-default"] == .bool(true))
            #expect(profile["ipv4"]?["ignore-auto-dns"] == .bool(true))
            #expect(profile["ipv4"]?["may-fail"] == .bool(false))
            #expect(profile["ipv6"]?["method"] == .string("disabled"))
            #expect(arguments[2] == .string("/org/freedesktop/NetworkManager/AccessPoint/1"))
            #expect(
                arguments[3] == .object(["persist": .string("volatile"), "bind-activation": .string("dbus-client")]))
        }
    }

    @Test func joinsAnOpenHotspotWithoutSecurity() async throws {
        let openHotspot: [String: any Sendable] = [
            "ssid": "ZT_OPEN", "bssid": "24:0A:C4:00:00:01", "psk": nil as String?,
        ]
        try await NMSoftAPMock.with(MockNM.parameters(["access_points": [openHotspot]])) { mock in
            let network = try await MockNM.joiner(mock).withJoinedNetwork(
                MockNM.request(ssid: "ZT_OPEN", passphrase: nil)
            ) {
                network in
                let joined = try await mock.state()
                #expect(joined.onlyActive("ztprov-ZT_OPEN"))
                return network
            }
            #expect(network.bssid == "24:0A:C4:00:00:01")
            let profile = try #require(try await mock.state().arguments(of: "AddAndActivateConnection2")?[0])
            #expect(profile["802-11-wireless-security"] == nil)
            try await MockNM.expectRestored(mock)
        }
    }

    @Test func findsAHotspotThatAppearsOnlyInAFreshScan() async throws {
        let hidden: [String: any Sendable] = [
            "ssid": MockNM.ssid, "bssid": "24:0A:C4:1A:2B:3C", "psk": MockNM.passphrase, "hidden_until_scan": true,
        ]
        try await NMSoftAPMock.with(MockNM.parameters(["access_points": [hidden]])) { mock in
            try await MockNM.joiner(mock).withJoinedNetwork(MockNM.request()) { network in
                #expect(network.bssid == "24:0A:C4:1A:2B:3C")
            }
            let state = try await mock.state()
            #expect(state.arguments(of: "RequestScan") == .array([.object(["ssids": .array([.string(MockNM.ssid)])])]))
            try await MockNM.expectRestored(mock)
        }
    }

    @Test func restoresThePreviousConnectionWhenTheBodyThrows() async throws {
        struct ProvisioningFailed: Error {}
        try await NMSoftAPMock.with(MockNM.parameters()) { mock in
            await #expect(throws: ProvisioningFailed.self) {
                try await MockNM.joiner(mock).withJoinedNetwork(MockNM.request()) { _ in throw ProvisioningFailed() }
            }
            try await MockNM.expectRestored(mock)
        }
    }

    @Test func leavesNothingActiveWhenNothingWasActiveBefore() async throws {
        try await NMSoftAPMock.with(MockNM.parameters(["previous_connection": nil as String?])) { mock in
            try await MockNM.joiner(mock).withJoinedNetwork(MockNM.request()) { _ in }
            let state = try await mock.state()
            #expect(state.activeConnections.isEmpty)
            #expect(state.profiles.isEmpty)
        }
    }

    @Test func refusesASecondJoinWhileJoined() async throws {
        try await NMSoftAPMock.with(MockNM.parameters()) { mock in
            let joiner = try MockNM.joiner(mock)
            try await joiner.withJoinedNetwork(MockNM.request()) { _ in
                await #expect(throws: NetworkManagerError.alreadyJoined(interface: MockNM.interface)) {
                    try await joiner.join(MockNM.request())
                }
            }
            try await MockNM.expectRestored(mock)
        }
    }
}
