public import Protocomm
import StringEssentials
public import Transports

/// What a successful SoftAP run leaves behind: the device is on the network, the host is back on its own.
public struct SoftAPProvisioningOutcome: Sendable, Equatable {
    /// The hotspot the host joined (interface, BSSID, address it got).
    public var hotspot: JoinedWiFiNetwork
    /// The Zhiting device ID: the hotspot's BSSID as 12 lower-case hex digits, as the Zhiting apps take it;
    /// nil when the joiner could not say which access point it joined.
    public var deviceID: String?
    /// What the device said about itself on `proto-ver`.
    public var deviceVersion: ProtocommVersionInfo
    /// The security the session ran.
    public var security: ProtocommSecurityUsed
    /// The networks the device saw, when the request asked for them and the device can scan.
    public var networks: [ProtocommWiFiNetwork]?
    /// How the device is connected.
    public var connection: ProtocommDeviceConnection
    /// How long each step took, in the order they ran.
    public var timings: [ProtocommStepTiming]

    public init(
        hotspot: JoinedWiFiNetwork,
        deviceID: String?,
        deviceVersion: ProtocommVersionInfo,
        security: ProtocommSecurityUsed,
        networks: [ProtocommWiFiNetwork]?,
        connection: ProtocommDeviceConnection,
        timings: [ProtocommStepTiming]
    ) {
        self.hotspot = hotspot
        self.deviceID = deviceID
        self.deviceVersion = deviceVersion
        self.security = security
        self.networks = networks
        self.connection = connection
        self.timings = timings
    }
}

/// The security a session ran, without its secrets.
public struct ProtocommSecurityUsed: Sendable, Equatable {
    /// The scheme.
    public var level: ProtocommSecurityLevel
    /// The security 2 nonce scheme; nil for security 0 and 1, or when the device's nonce length decided.
    public var patch: ProtocommSecurity2Patch?
    /// True when the scheme came from `proto-ver`, false when the caller forced it.
    public var isAutomatic: Bool
    /// Whether a security 1 session proved a PoP (false for a `no_pop` device).
    public var usesProofOfPossession: Bool
    /// Whether the link under the session was encrypted (a paired BLE link); false over SoftAP.
    public var linkEncrypted: Bool

    public init(
        level: ProtocommSecurityLevel, patch: ProtocommSecurity2Patch?, isAutomatic: Bool, usesProofOfPossession: Bool,
        linkEncrypted: Bool = false
    ) {
        self.level = level
        self.patch = patch
        self.isAutomatic = isAutomatic
        self.usesProofOfPossession = usesProofOfPossession
        self.linkEncrypted = linkEncrypted
    }
}

/// The device's report once it joined the network (`WifiConnectedState`), in printable form.
public struct ProtocommDeviceConnection: Sendable, Equatable {
    /// The device's IPv4 address on the network, such as `192.168.1.50`.
    public var ipAddress: String
    /// The network's name as the device reports it (lossy UTF-8 when the bytes are not text).
    public var ssid: String
    /// The access point the device joined, `aa:bb:cc:dd:ee:ff`; nil when the device did not say.
    public var bssid: String?
    /// The channel; the device's hotspot moves to it too.
    public var channel: Int
    /// The network's authentication mode.
    public var authMode: ProtocommWiFiAuthMode

    public init(ipAddress: String, ssid: String, bssid: String?, channel: Int, authMode: ProtocommWiFiAuthMode) {
        self.ipAddress = ipAddress
        self.ssid = ssid
        self.bssid = bssid
        self.channel = channel
        self.authMode = authMode
    }

    init(_ report: ProtocommWiFiConnection) {
        self.init(
            ipAddress: report.ipAddress,
            ssid: String(decoding: report.ssid, as: UTF8.self),
            bssid: report.bssid.count == 6 ? report.bssid.colonSeparatedHex : nil,
            channel: Int(report.channel),
            authMode: report.authMode
        )
    }
}

/// The steps of a SoftAP run, for timings and for saying where a limit ran out.
public enum ProtocommStep: String, Sendable, Equatable, CaseIterable {
    /// Joining the device's hotspot.
    case join
    /// `proto-ver`.
    case version
    /// The `prov-session` handshake.
    case session
    /// The device's Wi-Fi scan.
    case scan
    /// "Set config" and "apply".
    case configure
    /// Status polls until the device reports connected or failed.
    case connect
    /// Leaving the hotspot and restoring the previous network.
    case leave
}

/// How long one step took.
public struct ProtocommStepTiming: Sendable, Equatable {
    public var step: ProtocommStep
    public var duration: Duration

    public init(step: ProtocommStep, duration: Duration) {
        self.step = step
        self.duration = duration
    }
}
