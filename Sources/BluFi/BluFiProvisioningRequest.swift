/// What to configure on the device: the Wi-Fi mode with its settings, and what to exchange afterwards.
public struct BluFiProvisioningRequest: Sendable, Equatable {
    /// The operation mode and the settings it needs, passwords as bytes.
    public typealias Mode = BluFiWiFiMode<BluFiStationConfiguration, BluFiSoftAPConfiguration>

    /// The Wi-Fi mode to set and its settings.
    public var mode: Mode
    /// Whether success waits for the device ID (the first custom data the device sends).
    public var deviceID: BluFiDeviceIDPolicy
    /// Custom data to send once the device is provisioned (and its ID, if awaited, received).
    public var customData: [UInt8]?

    /// A request for `mode`, optionally waiting for the device ID and sending custom data after.
    public init(_ mode: Mode, deviceID: BluFiDeviceIDPolicy = .notAwaited, customData: [UInt8]? = nil) {
        self.mode = mode
        self.deviceID = deviceID
        self.customData = customData
    }

    /// The SET_OPMODE value.
    public var operationMode: BluFiOperationMode { mode.operationMode }
}

/// The network the device's station joins; `description` leaves the password out.
public struct BluFiStationConfiguration: Sendable, Equatable, CustomStringConvertible {
    /// 1 to 32 bytes.
    public var ssid: [UInt8]
    /// At most 64 bytes; empty for an open network (no password frame is sent then).
    public var password: [UInt8]
    /// Six bytes to lock the join to one access point.
    public var bssid: [UInt8]?

    /// Raw SSID and passphrase bytes.
    public init(ssid: [UInt8], password: [UInt8], bssid: [UInt8]? = nil) {
        self.ssid = ssid
        self.password = password
        self.bssid = bssid
    }

    /// Convenience for text SSIDs and passphrases, sent as UTF-8.
    public init(ssid: String, password: String, bssid: [UInt8]? = nil) {
        self.init(ssid: Array(ssid.utf8), password: Array(password.utf8), bssid: bssid)
    }

    public var description: String { "station \(String(decoding: ssid, as: UTF8.self)), password redacted" }
}

/// The device's own access point; empty or zero fields are not sent, the auth mode always is.
public struct BluFiSoftAPConfiguration: Sendable, Equatable, CustomStringConvertible {
    /// At most 32 bytes; empty keeps the device's SSID.
    public var ssid: [UInt8]
    /// At most 64 bytes; empty keeps the device's password.
    public var password: [UInt8]
    /// 0 keeps the device's channel.
    public var channel: UInt8
    /// 0 keeps the device's limit.
    public var maxConnections: UInt8
    /// How stations authenticate to the SoftAP.
    public var authMode: BluFiSoftAPAuthMode

    /// SoftAP settings; zero channel and connection limit keep the device defaults.
    public init(
        ssid: [UInt8], password: [UInt8], channel: UInt8 = 0, maxConnections: UInt8 = 0,
        authMode: BluFiSoftAPAuthMode = .wpa2PSK
    ) {
        self.ssid = ssid
        self.password = password
        self.channel = channel
        self.maxConnections = maxConnections
        self.authMode = authMode
    }

    public var description: String { "softap \(String(decoding: ssid, as: UTF8.self)), password redacted" }
}

/// What a successful provisioning established.
public struct BluFiProvisioningResult: Sendable, Equatable {
    /// The report that showed success: station connected, or SoftAP running.
    public var report: BluFiWiFiReport
    /// The device ID, when the device sent one.
    public var deviceID: String?

    /// The outcome of a provisioning.
    public init(report: BluFiWiFiReport, deviceID: String?) {
        self.report = report
        self.deviceID = deviceID
    }
}
