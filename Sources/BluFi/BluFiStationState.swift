/// The station's connection state in a WIFI_REPORT (`esp_blufi_sta_conn_state_t`).
public enum BluFiStationState: UInt8, Sendable, Hashable {
    /// Associated and holding an IP address: the success state.
    case connected = 0
    /// Not connected; after an attempt, the attempt failed (the report then carries an end reason).
    case disconnected = 1
    /// Still trying (the report then carries the retry budget).
    case connecting = 2
    /// Associated but still waiting for an IP address.
    case connectedWithoutIP = 3
}
