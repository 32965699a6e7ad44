/// How an emulated device behaves: its firmware generation, its Wi-Fi outcome and what it reports.
public struct BluFiDeviceConfiguration: Sendable, Equatable {
    /// The component version answered to GET_VERSION (1.3 for IDF ≤ 5.x, 1.4 for IDF ≥ 6.0).
    public var version: BluFiVersion
    /// The security callbacks the firmware registered; ``BluFiSecurityScheme/none`` answers NEG with
    /// error 4 (no security context), as firmware without `blufi_security_init()` does.
    public var security: BluFiSecurityScheme
    /// What happens when the station tries to join.
    public var wifiOutcome: BluFiWiFiOutcome
    /// Sent as custom data right after a successful join (the Zhiting convention); `nil` sends nothing.
    public var deviceID: String?
    /// The scan result; an empty list means no answer at all, as the reference firmware does.
    public var accessPoints: [BluFiAccessPoint]
    /// The BSSID of the access point the station joins.
    public var joinedBSSID: [UInt8]
    /// The RSSI reported after a failed join with a wrong password.
    public var failureRSSI: Int8
    /// The retry budget reported while connecting (`EXAMPLE_WIFI_CONNECTION_MAXIMUM_RETRY`).
    public var maximumConnectionRetries: UInt8
    /// The Wi-Fi mode before any SET_OPMODE (the example starts in station mode).
    public var initialOperationMode: BluFiOperationMode

    /// An ESP-IDF 5.x reference device (BluFi 1.3, V1) that joins successfully, unless told otherwise.
    public init(
        version: BluFiVersion = BluFiVersion(major: 1, minor: 3),
        security: BluFiSecurityScheme = .v1,
        wifiOutcome: BluFiWiFiOutcome = .joins,
        deviceID: String? = nil,
        accessPoints: [BluFiAccessPoint] = [],
        joinedBSSID: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66],
        failureRSSI: Int8 = -67,
        maximumConnectionRetries: UInt8 = 2,
        initialOperationMode: BluFiOperationMode = .station
    ) {
        self.version = version
        self.security = security
        self.wifiOutcome = wifiOutcome
        self.deviceID = deviceID
        self.accessPoints = accessPoints
        self.joinedBSSID = joinedBSSID
        self.failureRSSI = failureRSSI
        self.maximumConnectionRetries = maximumConnectionRetries
        self.initialOperationMode = initialOperationMode
    }
}

/// The result of the emulated station's join, decided when the caller reports the join finished.
public enum BluFiWiFiOutcome: Sendable, Hashable {
    /// Joins and gets an IP address; the device pushes a report.
    case joins
    /// Fails with a 4-way handshake timeout (reason 15), silently: the phone must poll.
    case wrongPassword
    /// Fails with NO_AP_FOUND (reason 201), silently.
    case networkNotFound
}
