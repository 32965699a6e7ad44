/// The Wi-Fi mode SET_OPMODE selects and WIFI_REPORT echoes (`wifi_mode_t`).
public enum BluFiOperationMode: UInt8, Sendable, Hashable, CaseIterable {
    /// Wi-Fi off.
    case null = 0
    /// Join an access point.
    case station = 1
    /// Run the device's own access point.
    case softAP = 2
    /// Both at once.
    case stationAndSoftAP = 3

    /// Whether the mode includes a station interface.
    public var includesStation: Bool { self == .station || self == .stationAndSoftAP }

    /// Whether the mode includes the device's own access point.
    public var includesSoftAP: Bool { self == .softAP || self == .stationAndSoftAP }
}
