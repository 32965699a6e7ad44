import Transports

/// The temporary profile ztprov joins a device's hotspot with.
///
/// Every choice guards the host: never auto-joined later, never the default
/// route or the resolver, no IPv6 to wait for, one password attempt so a wrong one fails fast, and
/// the permanent MAC so a retry is not a new station to the device's small DHCP pool.
struct NMSoftAPProfile: Equatable, Sendable {
    /// Connection ids start with this, so a leftover profile is recognisable as ztprov's.
    static let connectionIDPrefix = "ztprov-"
    /// Shorter than NetworkManager's default (about 45 s) so a stuck ESP DHCP server fails within the
    /// activation deadline with a DHCP reason rather than a bare timeout.
    static let dhcpTimeoutSeconds: Int32 = 25

    let request: WiFiJoinRequest
    /// Chosen by ztprov, so a profile NetworkManager keeps can be found again for deletion.
    let uuid: String
    let interfaceName: String
    let link: Link
    let version: NMVersion
    /// The user a non-root caller owns the profile as, so polkit's `settings.modify.own` suffices.
    let owner: String?

    /// The kind of connection the profile describes.
    enum Link: Equatable, Sendable {
        /// The device's hotspot, pinned to one access point when the request pins one.
        case wifi(pinnedBSSID: [UInt8]?)
        /// ``NMSoftAPJoiner/Link/ethernetForTesting``: only the connection type differs; the
        /// address, route and lifetime settings stay exactly those of the hotspot profile.
        case ethernetForTesting
    }

    var connectionID: String { Self.connectionIDPrefix + request.ssid }

    var settings: NMConnectionSettings {
        var settings = NMConnectionSettings()
        settings["connection", "id"] = .string(connectionID)
        settings["connection", "uuid"] = .string(uuid)
        settings["connection", "interface-name"] = .string(interfaceName)
        settings["connection", "autoconnect"] = .bool(false)
        if let owner {
            settings["connection", "permissions"] = .strings(["user:\(owner)"])
        }
        switch link {
        case .wifi(let pinnedBSSID): addHotspot(to: &settings, pinnedBSSID: pinnedBSSID)
        case .ethernetForTesting: settings["connection", "type"] = .string("802-3-ethernet")
        }
        settings["ipv4", "method"] = .string("auto")
        settings["ipv4", "never-default"] = .bool(true)
        settings["ipv4", "ignore-auto-dns"] = .bool(true)
        settings["ipv4", "may-fail"] = .bool(false)
        settings["ipv4", "dhcp-timeout"] = .int32(Self.dhcpTimeoutSeconds)
        settings["ipv6", "method"] = .string(version.hasIPv6MethodDisabled ? "disabled" : "ignore")
        return settings
    }

    private func addHotspot(to settings: inout NMConnectionSettings, pinnedBSSID: [UInt8]?) {
        settings["connection", "type"] = .string("802-11-wireless")
        settings["connection", "auth-retries"] = .int32(1)
        settings["802-11-wireless", "ssid"] = .bytes(Array(request.ssid.utf8))
        settings["802-11-wireless", "mode"] = .string("infrastructure")
        settings["802-11-wireless", "assigned-mac-address"] = .string("permanent")
        if let pinnedBSSID {
            settings["802-11-wireless", "bssid"] = .bytes(pinnedBSSID)
        }
        if let passphrase = request.passphrase, !passphrase.isEmpty {
            settings["802-11-wireless-security", "key-mgmt"] = .string("wpa-psk")
            settings["802-11-wireless-security", "psk"] = .string(passphrase)
            // System-owned: with no secret agent a wrong key then ends in NO_SECRETS instead of a prompt.
            settings["802-11-wireless-security", "psk-flags"] = .uint32(0)
        }
    }
}

extension NMSoftAPProfile {
    /// Parses a colon-separated hardware address (`24:0A:C4:1A:2B:3C`) into its six bytes.
    static func hardwareAddressBytes(_ text: String) -> [UInt8]? {
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false).compactMap { part in
            part.count == 2 ? UInt8(part, radix: 16) : nil
        }
        return bytes.count == 6 && text.count == 17 ? bytes : nil
    }
}
