/// What a session waits for after a ``BluFiClient/Action/wait(for:)``: the flow picks the timeout
/// from it and calls ``BluFiClient/deadlinePassed()`` when the timeout fires.
public enum BluFiAwaitedReply: Sendable, Hashable {
    /// VERSION after GET_VERSION (5 s is plenty; without an answer the session assumes V1).
    case version
    /// The device's NEG reply; V2 on SoCs without an MPI accelerator can take 20–30 s.
    case devicePublicKey
    /// The ACK of SET_OPMODE.
    case acknowledgement
    /// A WIFI_REPORT that ends the station's connection attempt; poll with
    /// ``BluFiClient/requestedWiFiStatus()`` every one or two seconds meanwhile.
    case wifiConnection
    /// A WIFI_REPORT showing the device's own access point.
    case softAPStatus
    /// The answer to a one-off GET_WIFI_STATUS.
    case wifiStatus
    /// WIFI_LIST; a device that finds no network stays silent, so the deadline means "empty list".
    case wifiList
    /// The device ID the device sends as custom data once it joined the network.
    case deviceID
    /// The device ID during the brief grace an optional ID gets; when it passes, success goes on without it.
    case optionalDeviceID
}
