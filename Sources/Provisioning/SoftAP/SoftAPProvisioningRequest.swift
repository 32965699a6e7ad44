public import Protocomm
public import Records
public import Transports

/// Everything one SoftAP run needs: the device's hotspot, where the device serves protocomm on it,
/// the network the device should join, and how to secure the session.
///
/// Secrets stay ``Secret`` until the protocol step that sends them, so printing or dumping a
/// request never shows them.
public struct SoftAPProvisioningRequest: Sendable, Equatable {
    /// The device's hotspot.
    public var hotspot: SoftAPHotspot
    /// Where the device serves protocomm on its hotspot (192.168.4.1:80 on stock firmware).
    public var device: DeviceEndpoint
    /// The network the device should join.
    public var network: ProtocommTargetNetwork
    /// The session's security: automatic from `proto-ver` unless overridden.
    public var security: ProtocommSecurityOptions
    /// Asks the device for the networks it sees before sending the credentials.
    public var listsNetworks: Bool
    /// After the device fails to join, sends `prov-ctrl` reset (ESP-IDF 5.1 and later) so the
    /// device accepts new credentials without a power cycle.
    public var resetsDeviceAfterFailure: Bool
    /// Has the device scan before the credentials go, and refuses a network it does not hear (`--check-network`).
    public var checksNetwork = false
    /// The network does not broadcast its name (`--hidden`): a scan that misses it refuses nothing.
    public var hidden = false

    public init(
        hotspot: SoftAPHotspot,
        device: DeviceEndpoint = .softAPDefault,
        network: ProtocommTargetNetwork,
        security: ProtocommSecurityOptions = ProtocommSecurityOptions(),
        listsNetworks: Bool = false,
        resetsDeviceAfterFailure: Bool = true
    ) {
        self.hotspot = hotspot
        self.device = device
        self.network = network
        self.security = security
        self.listsNetworks = listsNetworks
        self.resetsDeviceAfterFailure = resetsDeviceAfterFailure
    }

    /// What the protocomm conversation on the hotspot asks of the device.
    public var protocomm: ProtocommWiFiRequest {
        ProtocommWiFiRequest(
            network: network, security: security, listsNetworks: listsNetworks,
            resetsDeviceAfterFailure: resetsDeviceAfterFailure, checksNetwork: checksNetwork, hidden: hidden)
    }
}

/// The device's own access point.
public struct SoftAPHotspot: Sendable, Equatable {
    /// The hotspot's name, such as `MH-1A2B3C` or `PROV_1A2B3C`.
    public var ssid: String
    /// The WPA2 passphrase; nil or empty for an open hotspot (the Zhiting apps join it open).
    public var password: Secret?
    /// Pins the join to one access point (`24:0A:C4:1A:2B:3C`) so a twin device is never joined.
    public var bssid: String?

    public init(ssid: String, password: Secret? = nil, bssid: String? = nil) {
        self.ssid = ssid
        self.password = password
        self.bssid = bssid
    }
}

/// The Wi-Fi network the device is told to join.
public struct ProtocommTargetNetwork: Sendable, Equatable {
    /// The network's name, sent as UTF-8 (at most 32 bytes).
    public var ssid: String
    /// The passphrase, sent as UTF-8 (at most 63 bytes); empty for an open network.
    public var passphrase: Secret

    public init(ssid: String, passphrase: Secret) {
        self.ssid = ssid
        self.passphrase = passphrase
    }
}

/// How the session is secured: every field nil means "as the device's `proto-ver` says".
public struct ProtocommSecurityOptions: Sendable, Equatable {
    /// Forces a scheme instead of the one `proto-ver` recommends.
    public var level: ProtocommSecurityLevel?
    /// Forces the security 2 nonce scheme instead of `sec_patch_ver` (or the nonce length).
    public var patch: ProtocommSecurity2Patch?
    /// The security 1 proof of possession (`abcd1234` in the Zhiting apps).
    public var proofOfPossession: Secret?
    /// The security 2 SRP username; not secret (the command line takes it as an option).
    public var srpUsername: String?
    /// The security 2 SRP password.
    public var srpPassword: Secret?
    /// The least security the session may run (`--min-security`); a device below it is refused before the
    /// handshake.
    public var minimum: SecurityLevel

    public init(
        level: ProtocommSecurityLevel? = nil,
        patch: ProtocommSecurity2Patch? = nil,
        proofOfPossession: Secret? = nil,
        srpUsername: String? = nil,
        srpPassword: Secret? = nil,
        minimum: SecurityLevel = .none
    ) {
        self.level = level
        self.patch = patch
        self.proofOfPossession = proofOfPossession
        self.srpUsername = srpUsername
        self.srpPassword = srpPassword
        self.minimum = minimum
    }

    /// The credentials in the core's terms; the one place these secrets are revealed.
    var credentials: ProtocommCredentials {
        ProtocommCredentials(
            proofOfPossession: proofOfPossession?.revealed(), username: srpUsername, password: srpPassword?.revealed())
    }
}
