/// The provisioning request: SET_OPMODE with ACK, the mode's fields, then the wait for the outcome.
///
/// Frame order follows the official apps: SET_OPMODE (ACK required) → [STA_BSSID] → STA_SSID →
/// [STA_PASSWD] → CONNECT_AP → SoftAP SSID, password, channel, max connections (each if set) → auth
/// mode. CONNECT_AP travels without checksum or encryption, as the Android library sends it.
extension BluFiClient {
    /// Configures the device as `request` says and reports ``BluFiClientEvent/provisioned(_:)`` once
    /// the network is joined (or the SoftAP runs) and the device ID, if expected, arrived.
    public mutating func requestedProvisioning(_ request: BluFiProvisioningRequest) throws(BluFiError) -> [Action] {
        try requireReady()
        try Self.validate(request)
        let sequence = encoder.nextSequence
        let actions = try send(
            .setOperationMode, [request.operationMode.rawValue],
            control: sessionControl.union(.acknowledgementRequired))
        phase = .awaitingAcknowledgement(sequence: sequence, request)
        return actions + [.wait(for: .acknowledgement)]
    }

    mutating func handleAcknowledgement(
        _ payload: [UInt8], expected: UInt8, request: BluFiProvisioningRequest
    ) throws(BluFiError) -> [Action] {
        guard payload.count == 1 else { throw .malformedPayload(.ack) }
        guard payload[0] == expected else { throw .unexpectedAcknowledgement(expected: expected, received: payload[0]) }
        var actions: [Action] = [.report(.operationModeAcknowledged(request.operationMode))]
        switch request.mode {
        case .station(let station):
            actions += try sendStation(station)
            phase = .awaitingWiFiConnection(request)
            return actions + [.wait(for: .wifiConnection)]
        case .softAP(let softAP):
            actions += try sendSoftAP(softAP) + (try send(.getWiFiStatus, control: sessionControl))
            phase = .awaitingSoftAPStatus(request)
            return actions + [.wait(for: .softAPStatus)]
        case .stationAndSoftAP(let station, let softAP):
            actions += try sendStation(station) + (try sendSoftAP(softAP))
            phase = .awaitingWiFiConnection(request)
            return actions + [.wait(for: .wifiConnection)]
        }
    }

    /// After success: wait for the device ID if the request says so, send the request's custom data, report.
    ///
    /// `graceOver` is set once a brief wait for an optional ID ran out: success then goes on without it.
    mutating func completeProvisioning(
        _ request: BluFiProvisioningRequest, report: BluFiWiFiReport, graceOver: Bool = false
    ) throws(BluFiError) -> [Action] {
        var actions: [Action] = []
        var deviceID: String?
        if let bytes = firstCustomData {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                if request.deviceID == .required { throw .deviceIDNotUTF8(bytes) }
                return try finishProvisioning(request, report: report, deviceID: nil)
            }
            deviceID = text
            actions.append(.report(.deviceIDReceived(text)))
        } else if request.deviceID == .required || (request.deviceID == .awaitedBriefly && !graceOver) {
            phase = .awaitingDeviceID(request, report)
            return [.wait(for: request.deviceID == .required ? .deviceID : .optionalDeviceID)]
        }
        return actions + (try finishProvisioning(request, report: report, deviceID: deviceID))
    }

    private mutating func finishProvisioning(
        _ request: BluFiProvisioningRequest, report: BluFiWiFiReport, deviceID: String?
    ) throws(BluFiError) -> [Action] {
        var actions: [Action] = []
        if let customData = request.customData {
            actions += try send(.customData, customData, control: sessionControl)
            actions.append(.report(.customDataSent(byteCount: customData.count)))
        }
        phase = .ready
        return actions + [.report(.provisioned(BluFiProvisioningResult(report: report, deviceID: deviceID)))]
    }

    private mutating func sendStation(_ station: BluFiStationConfiguration) throws(BluFiError) -> [Action] {
        var actions: [Action] = []
        if let bssid = station.bssid { actions += try send(.staBSSID, bssid, control: sessionControl) }
        actions += try send(.staSSID, station.ssid, control: sessionControl)
        // A password frame also raises the device's auth-mode threshold to WPA2, so open networks get none.
        if !station.password.isEmpty { actions += try send(.staPassword, station.password, control: sessionControl) }
        actions.append(.report(.stationConfigurationSent))
        return actions + (try send(.connectAP)) + [.report(.connectionRequested)]
    }

    private mutating func sendSoftAP(_ softAP: BluFiSoftAPConfiguration) throws(BluFiError) -> [Action] {
        var actions: [Action] = []
        if !softAP.ssid.isEmpty { actions += try send(.softAPSSID, softAP.ssid, control: sessionControl) }
        if !softAP.password.isEmpty { actions += try send(.softAPPassword, softAP.password, control: sessionControl) }
        if softAP.channel > 0 { actions += try send(.softAPChannel, [softAP.channel], control: sessionControl) }
        if softAP.maxConnections > 0 {
            actions += try send(.softAPMaxConnections, [softAP.maxConnections], control: sessionControl)
        }
        actions += try send(.softAPAuthMode, [softAP.authMode.rawValue], control: sessionControl)
        return actions + [.report(.softAPConfigurationSent)]
    }

    private static func validate(_ request: BluFiProvisioningRequest) throws(BluFiError) {
        switch request.mode {
        case .station(let station):
            try validate(station)
        case .softAP(let softAP):
            try validate(softAP)
        case .stationAndSoftAP(let station, let softAP):
            try validate(station)
            try validate(softAP)
        }
        if let customData = request.customData, customData.count > BluFiFragmenter.maximumMessageLength {
            throw .messageTooLong(byteCount: customData.count)
        }
    }

    private static func validate(_ station: BluFiStationConfiguration) throws(BluFiError) {
        guard (1...32).contains(station.ssid.count) else { throw .invalidSSID(byteCount: station.ssid.count) }
        guard station.password.count <= 64 else { throw .invalidPassword(byteCount: station.password.count) }
        if let bssid = station.bssid, bssid.count != 6 { throw .invalidBSSID(byteCount: bssid.count) }
    }

    private static func validate(_ softAP: BluFiSoftAPConfiguration) throws(BluFiError) {
        guard softAP.ssid.count <= 32 else { throw .invalidSSID(byteCount: softAP.ssid.count) }
        guard softAP.password.count <= 64 else { throw .invalidPassword(byteCount: softAP.password.count) }
    }
}
