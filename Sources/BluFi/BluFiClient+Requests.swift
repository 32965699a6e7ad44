/// Requests besides provisioning: status, scan, custom data, deauthentication, disconnect.
extension BluFiClient {
    /// Asks for a WIFI_REPORT.
    ///
    /// While provisioning waits for the connection this is the poll (call it every one or two seconds:
    /// the reference firmware pushes nothing when a join fails); otherwise a one-off request that ends
    /// in ``BluFiClientEvent/wifiStatusReceived(_:)``.
    public mutating func requestedWiFiStatus() throws(BluFiError) -> [Action] {
        switch phase {
        case .awaitingWiFiConnection, .awaitingSoftAPStatus:
            return try send(.getWiFiStatus, control: sessionControl)
        default:
            try requireReady()
            let actions = try send(.getWiFiStatus, control: sessionControl)
            phase = .awaitingWiFiStatus
            return actions + [.wait(for: .wifiStatus)]
        }
    }

    /// Asks the device to scan; ends in ``BluFiClientEvent/wifiListReceived(_:)`` (empty when the
    /// deadline passes: a device that finds nothing stays silent) or ``BluFiClientEvent/wifiScanFailed``.
    public mutating func requestedWiFiList() throws(BluFiError) -> [Action] {
        try requireReady()
        let actions = try send(.getWiFiList, control: sessionControl)
        phase = .awaitingWiFiList
        return actions + [.wait(for: .wifiList)]
    }

    /// Makes a session whose join failed or went silent ready again (the link and keys still hold), so a
    /// flow can ask the device what it hears (``requestedWiFiList()``) and explain the failure; false, and
    /// nothing changes, after any other failure.
    public mutating func recoveredFromFailedJoin() -> Bool {
        switch phase {
        case .failed(.wifiConnectionFailed), .failed(.timedOut(.wifiConnection)):
            phase = .ready
            return true
        default:
            return false
        }
    }

    /// Sends application bytes as CUSTOM_DATA (fragmented as needed); no answer is expected.
    public mutating func requestedCustomData(_ bytes: [UInt8]) throws(BluFiError) -> [Action] {
        try requireReady()
        return try send(.customData, bytes, control: sessionControl) + [
            .report(.customDataSent(byteCount: bytes.count))
        ]
    }

    /// Asks the device to remove these stations (6-byte MACs) from its SoftAP.
    public mutating func requestedStationDeauthentication(_ stations: [[UInt8]]) throws(BluFiError) -> [Action] {
        try requireReady()
        if let wrong = stations.first(where: { $0.count != 6 }) { throw .invalidBSSID(byteCount: wrong.count) }
        return try send(.deauthenticateStations, stations.flatMap { $0 }, control: sessionControl)
            + [.report(.deauthenticationSent(stationCount: stations.count))]
    }

    /// Sends DISCONNECT_BLE (the device then closes the link) and ends the session.
    ///
    /// Accepted in any phase of a live link, including after a failure, so a flow can always leave
    /// politely.
    public mutating func requestedDisconnect() throws(BluFiError) -> [Action] {
        switch phase {
        case .disconnected: throw .notConnected
        case .finished: throw .sessionEnded
        default: break
        }
        let actions = try send(.disconnectBLE)
        phase = .finished
        return actions + [.report(.disconnectRequested), .finished]
    }

    func requireReady() throws(BluFiError) {
        switch phase {
        case .ready: return
        case .disconnected: throw .notConnected
        case .finished, .failed: throw .sessionEnded
        default: throw .busy(awaitedReply ?? .version)
        }
    }
}
