/// The type byte of a frame: a kind (control or data) in bits 0–1 and a subtype in bits 2–7.
///
/// Kept as the raw byte so a frame of a subtype this core does not know still travels through the
/// decoder (ESP-IDF consumes its sequence number and only then drops it); ``isDefined`` says whether
/// the byte is one of the subtypes ESP-IDF defines (`blufi_int.h`).
public struct BluFiFrameType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The two frame kinds; values 2 and 3 of the kind bits are unused.
    public enum Kind: UInt8, Sendable {
        case control = 0
        case data = 1
    }

    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Packs `kind` and `subtype` (0…63) into one type byte.
    public init(_ kind: Kind, subtype: UInt8) {
        precondition(subtype < 64, "BluFi subtypes have six bits")
        rawValue = subtype << 2 | kind.rawValue
    }

    /// Control or data; `nil` for the unused kind values 2 and 3.
    public var kind: Kind? { Kind(rawValue: rawValue & 0x03) }

    /// The six subtype bits.
    public var subtype: UInt8 { rawValue >> 2 }

    /// Whether the byte names one of ESP-IDF's control or data subtypes.
    public var isDefined: Bool { Self.names[self] != nil }

    public var description: String { Self.names[self] ?? "type 0x\(String(rawValue, radix: 16))" }
}

// MARK: Control frames (kind 0)

extension BluFiFrameType {
    /// One byte: the acknowledged sequence number.
    public static let ack = BluFiFrameType(.control, subtype: 0x00)
    /// One byte: the ``BluFiSecurityMode`` the device applies to its own later frames.
    public static let setSecurityMode = BluFiFrameType(.control, subtype: 0x01)
    /// One byte: the ``BluFiOperationMode``.
    public static let setOperationMode = BluFiFrameType(.control, subtype: 0x02)
    /// Join the configured access point.
    public static let connectAP = BluFiFrameType(.control, subtype: 0x03)
    /// Leave the access point.
    public static let disconnectAP = BluFiFrameType(.control, subtype: 0x04)
    /// Ask for a ``BluFiWiFiReport``.
    public static let getWiFiStatus = BluFiFrameType(.control, subtype: 0x05)
    /// Six bytes per station to remove from the device's SoftAP.
    public static let deauthenticateStations = BluFiFrameType(.control, subtype: 0x06)
    /// Ask for the component's ``BluFiVersion``.
    public static let getVersion = BluFiFrameType(.control, subtype: 0x07)
    /// Ask the device to close the BLE link.
    public static let disconnectBLE = BluFiFrameType(.control, subtype: 0x08)
    /// Ask the device to scan and send a Wi-Fi list.
    public static let getWiFiList = BluFiFrameType(.control, subtype: 0x09)
}

// MARK: Data frames (kind 1)

extension BluFiFrameType {
    /// Security negotiation messages, both directions.
    public static let negotiation = BluFiFrameType(.data, subtype: 0x00)
    /// Six bytes: join only the access point with this BSSID.
    public static let staBSSID = BluFiFrameType(.data, subtype: 0x01)
    /// The station SSID, raw bytes without a terminator.
    public static let staSSID = BluFiFrameType(.data, subtype: 0x02)
    /// The station passphrase, raw bytes.
    public static let staPassword = BluFiFrameType(.data, subtype: 0x03)
    /// The SSID of the device's own access point.
    public static let softAPSSID = BluFiFrameType(.data, subtype: 0x04)
    /// The passphrase of the device's own access point.
    public static let softAPPassword = BluFiFrameType(.data, subtype: 0x05)
    /// One byte: how many stations the SoftAP admits.
    public static let softAPMaxConnections = BluFiFrameType(.data, subtype: 0x06)
    /// One byte: a ``BluFiSoftAPAuthMode``.
    public static let softAPAuthMode = BluFiFrameType(.data, subtype: 0x07)
    /// One byte: the SoftAP channel.
    public static let softAPChannel = BluFiFrameType(.data, subtype: 0x08)
    /// Enterprise user name (the reference firmware ignores it).
    public static let username = BluFiFrameType(.data, subtype: 0x09)
    /// Enterprise CA certificate (the reference firmware ignores it).
    public static let caCertificate = BluFiFrameType(.data, subtype: 0x0A)
    /// Enterprise client certificate (the reference firmware ignores it).
    public static let clientCertificate = BluFiFrameType(.data, subtype: 0x0B)
    /// Enterprise server certificate (the reference firmware ignores it).
    public static let serverCertificate = BluFiFrameType(.data, subtype: 0x0C)
    /// Enterprise client key (the reference firmware ignores it).
    public static let clientPrivateKey = BluFiFrameType(.data, subtype: 0x0D)
    /// Enterprise server key (the reference firmware ignores it).
    public static let serverPrivateKey = BluFiFrameType(.data, subtype: 0x0E)
    /// Device → phone: connection state and details.
    public static let wifiReport = BluFiFrameType(.data, subtype: 0x0F)
    /// Device → phone: major and minor version.
    public static let version = BluFiFrameType(.data, subtype: 0x10)
    /// Device → phone: scan results.
    public static let wifiList = BluFiFrameType(.data, subtype: 0x11)
    /// Device → phone: one ``BluFiDeviceErrorCode`` byte.
    public static let error = BluFiFrameType(.data, subtype: 0x12)
    /// Opaque application bytes, both directions.
    public static let customData = BluFiFrameType(.data, subtype: 0x13)
    /// Report tag (only used inside a ``BluFiWiFiReport``): the configured retry count.
    public static let staMaxConnectionRetry = BluFiFrameType(.data, subtype: 0x14)
    /// Report tag: why the last station connection ended.
    public static let staConnectionEndReason = BluFiFrameType(.data, subtype: 0x15)
    /// Report tag: signal strength at the end of the last attempt.
    public static let staConnectionRSSI = BluFiFrameType(.data, subtype: 0x16)
}

extension BluFiFrameType {
    /// Spec names, for logs and test failure messages.
    private static let names: [BluFiFrameType: String] = [
        .ack: "ACK", .setSecurityMode: "SET_SEC_MODE", .setOperationMode: "SET_OPMODE", .connectAP: "CONNECT_AP",
        .disconnectAP: "DISCONNECT_AP", .getWiFiStatus: "GET_WIFI_STATUS", .deauthenticateStations: "DEAUTH_STA",
        .getVersion: "GET_VERSION", .disconnectBLE: "DISCONNECT_BLE", .getWiFiList: "GET_WIFI_LIST",
        .negotiation: "NEG", .staBSSID: "STA_BSSID", .staSSID: "STA_SSID", .staPassword: "STA_PASSWD",
        .softAPSSID: "SOFTAP_SSID", .softAPPassword: "SOFTAP_PASSWD", .softAPMaxConnections: "SOFTAP_MAX_CONN_NUM",
        .softAPAuthMode: "SOFTAP_AUTH_MODE", .softAPChannel: "SOFTAP_CHANNEL", .username: "USERNAME",
        .caCertificate: "CA_CERT", .clientCertificate: "CLIENT_CERT", .serverCertificate: "SERVER_CERT",
        .clientPrivateKey: "CLIENT_PRIV_KEY", .serverPrivateKey: "SERVER_PRIV_KEY", .wifiReport: "WIFI_REPORT",
        .version: "VERSION", .wifiList: "WIFI_LIST", .error: "ERROR", .customData: "CUSTOM_DATA",
        .staMaxConnectionRetry: "STA_MAX_CONN_RETRY", .staConnectionEndReason: "STA_CONN_END_REASON",
        .staConnectionRSSI: "STA_CONN_RSSI",
    ]
}
