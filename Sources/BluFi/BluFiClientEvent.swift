/// Progress a ``BluFiClient`` reports, in protocol order, for the flow to show or record.
public enum BluFiClientEvent: Sendable, Equatable {
    /// The device answered GET_VERSION.
    case versionReceived(BluFiVersion)
    /// The device did not answer GET_VERSION in time; automatic security falls back to V1.
    case versionUnavailable
    /// The NEG messages for this scheme are on their way.
    case negotiationStarted(BluFiSecurityScheme)
    /// Keys are derived and SET_SEC_MODE is sent: from here on frames are encrypted and checksummed.
    case securityEstablished(BluFiSecurityScheme)
    /// Version and security are settled; requests are accepted.
    case sessionReady
    /// The device acknowledged SET_OPMODE.
    case operationModeAcknowledged(BluFiOperationMode)
    /// BSSID, SSID and password of the station are sent.
    case stationConfigurationSent
    /// CONNECT_AP is sent; the device is joining the network.
    case connectionRequested
    /// The SoftAP fields are sent.
    case softAPConfigurationSent
    /// Any WIFI_REPORT, asked for or pushed by the device.
    case wifiStatusReceived(BluFiWiFiReport)
    /// The station joined the network and holds an IP address.
    case wifiConnected(BluFiWiFiReport)
    /// The device runs its own access point.
    case softAPStarted(BluFiWiFiReport)
    /// Any custom data from the device.
    case customDataReceived([UInt8])
    /// The device ID: the session's first custom data, as UTF-8.
    case deviceIDReceived(String)
    /// The brief wait for an optional device ID passed without one; provisioning goes on without it.
    case deviceIDMissing
    /// Custom data of this many bytes is sent.
    case customDataSent(byteCount: Int)
    /// Provisioning completed: the network is joined (or the SoftAP runs) and the ID is known.
    case provisioned(BluFiProvisioningResult)
    /// The device's scan results (empty when it stayed silent until the deadline).
    case wifiListReceived([BluFiAccessPoint])
    /// The device could not start a scan (ERROR 11); the session carries on.
    case wifiScanFailed
    /// DEAUTH_STA for this many stations is sent.
    case deauthenticationSent(stationCount: Int)
    /// DISCONNECT_BLE is sent; the device will close the link.
    case disconnectRequested
}
