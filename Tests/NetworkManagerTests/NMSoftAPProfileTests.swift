import Testing
import Transports

@testable import NetworkManager

@Suite struct NMSoftAPProfileTests {
    static func profile(
        passphrase: String? = "hotspot-pass",
        pinnedBSSID: [UInt8]? = nil,
        version: NMVersion = NMVersion(1, 42, 4),
        owner: String? = nil
    ) -> NMSoftAPProfile {
        NMSoftAPProfile(
            request: WiFiJoinRequest(ssid: "ZT_1A2B3C", passphrase: passphrase),
            uuid: "5b0f6f0e-8e53-4c1c-9a0e-1d2b3c4d5e6f",
            interfaceName: "wlan0", link: .wifi(pinnedBSSID: pinnedBSSID), version: version, owner: owner)
    }

    @Test func guardsTheHostsRoutesResolverAndAutoconnect() {
        let settings = Self.profile().settings
        #expect(settings["connection", "id"] == .string("ztprov-ZT_1A2B3C"))
        #expect(settings["connection", "uuid"] == .string("5b0f6f0e-8e53-4c1c-9a0e-1d2b3c4d5e6f"))
        #expect(settings["connection", "type"] == .string("802-11-wireless"))
        #expect(settings["connection", "interface-name"] == .string("wlan0"))
        #expect(settings["connection", "autoconnect"] == .bool(false))
        #expect(settings["connection", "auth-retries"] == .int32(1))
        #expect(settings["802-11-wireless", "ssid"] == .bytes(Array("ZT_1A2B3C".utf8)))
        #expect(settings["802-11-wireless", "mode"] == .string("infrastructure"))
        #expect(settings["802-11-wireless", "assigned-mac-address"] == .string("permanent"))
        #expect(settings["ipv4", "method"] == .string("auto"))
        #expect(settings["ipv4", "never-default"] == .bool(true))
        #expect(settings["ipv4", "ignore-auto-dns"] == .bool(true))
        #expect(settings["ipv4", "may-fail"] == .bool(false))
        #expect(settings["ipv4", "dhcp-timeout"] == .int32(25))
        #expect(settings["ipv6", "method"] == .string("disabled"))
    }

    @Test func ethernetTestLinkKeepsTheHostGuardsAndDropsTheHotspotSettings() {
        var profile = Self.profile()
        let hotspot = profile.settings
        profile = NMSoftAPProfile(
            request: profile.request, uuid: profile.uuid, interfaceName: "ztnm0", link: .ethernetForTesting,
            version: profile.version, owner: nil)
        let wired = profile.settings
        #expect(wired["connection", "type"] == .string("802-3-ethernet"))
        #expect(wired["connection", "interface-name"] == .string("ztnm0"))
        #expect(wired["connection", "autoconnect"] == .bool(false))
        for property in ["method", "never-default", "ignore-auto-dns", "may-fail", "dhcp-timeout"] {
            #expect(wired["ipv4", property] == hotspot["ipv4", property])
        }
        #expect(wired["ipv6", "method"] == .string("disabled"))
        #expect(wired["802-11-wireless", "ssid"] == nil)
        #expect(wired["802-11-wireless-security", "psk"] == nil)
    }

    @Test func usesWPAPSKWithASystemOwnedKey() {
        let settings = Self.profile().settings
        #expect(settings["802-11-wireless-security", "key-mgmt"] == .string("wpa-psk"))
        #expect(settings["802-11-wireless-security", "psk"] == .string("hotspot-pass"))
        #expect(settings["802-11-wireless-security", "psk-flags"] == .uint32(0))
    }

    @Test(arguments: [nil, ""])
    func joinsAnOpenHotspotWithoutASecuritySetting(passphrase: String?) {
        #expect(Self.profile(passphrase: passphrase).settings.settings["802-11-wireless-security"] == nil)
    }

    @Test func fallsBackToIPv6IgnoreBefore1_20() {
        #expect(Self.profile(version: NMVersion(1, 18, 0)).settings["ipv6", "method"] == .string("ignore"))
    }

    @Test func pinsTheBSSIDAndOwnerOnlyWhenGiven() {
        let plain = Self.profile().settings
        #expect(plain["802-11-wireless", "bssid"] == nil)
        #expect(plain["connection", "permissions"] == nil)
        let pinned = Self.profile(pinnedBSSID: [0x24, 0x0A, 0xC4, 0x1A, 0x2B, 0x3C], owner: "pi").settings
        #expect(pinned["802-11-wireless", "bssid"] == .bytes([0x24, 0x0A, 0xC4, 0x1A, 0x2B, 0x3C]))
        #expect(pinned["connection", "permissions"] == .strings(["user:pi"]))
    }

    /// NetworkManager declares one D-Bus type per property (`auth-retries` is `i`, `psk-flags` is `u`).
    @Test func encodesTheSettingsAsNetworkManagersDBusTypes() {
        let text = GVariantMaking.connection(Self.profile(pinnedBSSID: [1, 2, 3, 4, 5, 6], owner: "pi").settings).text
        #expect(
            text == """
                {'802-11-wireless': {'assigned-mac-address': <'permanent'>, \
                'bssid': <[byte 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]>, 'mode': <'infrastructure'>, \
                'ssid': <[byte 0x5a, 0x54, 0x5f, 0x31, 0x41, 0x32, 0x42, 0x33, 0x43]>}, \
                '802-11-wireless-security': {'key-mgmt': <'wpa-psk'>, 'psk': <'hotspot-pass'>, \
                'psk-flags': <uint32 0>}, \
                'connection': {'auth-retries': <1>, 'autoconnect': <false>, 'id': <'ztprov-ZT_1A2B3C'>, \
                'interface-name': <'wlan0'>, 'permissions': <['user:pi']>, 'type': <'802-11-wireless'>, \
                'uuid': <'5b0f6f0e-8e53-4c1c-9a0e-1d2b3c4d5e6f'>}, \
                'ipv4': {'dhcp-timeout': <25>, 'ignore-auto-dns': <true>, 'may-fail': <false>, \
                'method': <'auto'>, 'never-default': <true>}, 'ipv6': {'method': <'disabled'>}}
                """)
    }

    /// libnm accepts the settings, and the same call refuses settings libnm does not know, so the
    /// acceptance is libnm's verdict rather than a call that cannot fail.
    @Test func libnmBuildsAConnectionFromTheSettings() throws {
        _ = try LibNMClient.simpleConnection(GVariantMaking.connection(Self.profile().settings))
        var unknownType = Self.profile().settings
        unknownType["connection", "type"] = .string("ztprov-no-such-type")
        #expect(throws: NetworkManagerError.self) {
            try LibNMClient.simpleConnection(GVariantMaking.connection(unknownType))
        }
    }

    @Test(arguments: [
        ("24:0A:C4:1A:2B:3C", [UInt8]?.some([0x24, 0x0A, 0xC4, 0x1A, 0x2B, 0x3C])),
        ("24:0a:c4:1a:2b:3c", [0x24, 0x0A, 0xC4, 0x1A, 0x2B, 0x3C]),
        ("24:0A:C4:1A:2B", nil),
        ("24:0A:C4:1A:2B:3C:4D", nil),
        ("240A:C4:1A:2B:3C:", nil),
        ("24:0A:C4:1A:2B:3G", nil),
    ])
    func parsesHardwareAddresses(text: String, bytes: [UInt8]?) {
        #expect(NMSoftAPProfile.hardwareAddressBytes(text) == bytes)
    }
}
