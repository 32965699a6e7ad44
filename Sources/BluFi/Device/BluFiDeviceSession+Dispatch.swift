/// What the device does with each complete message (ESP-IDF `btc_blufi_protocol_handler` plus the
/// reference example's event handler, including its field limits).
extension BluFiDeviceSession {
    mutating func dispatch(_ message: BluFiMessage) -> [Action] {
        let payload = message.payload
        switch message.type {
        case .ack:
            return []
        case .setSecurityMode:
            guard let byte = payload.first else { return sendError(.dataFormat) }
            securityMode = BluFiSecurityMode(rawValue: byte)
            return [.report(.securityModeChanged(securityMode))]
        case .setOperationMode:
            return setOperationMode(payload)
        case .connectAP:
            stationStatus = .connecting
            return [.report(.connectRequested)]
        case .disconnectAP:
            stationStatus = .failed(.leftOnRequest, rssi: -128)
            return [.report(.disconnectAPRequested)]
        case .getWiFiStatus:
            return send(.wifiReport, statusReport.payload)
        case .deauthenticateStations:
            return [.report(.deauthenticationRequested(payload))]
        case .getVersion:
            return send(.version, configuration.version.payload)
        case .disconnectBLE:
            return [.disconnect]
        case .getWiFiList:
            return configuration.accessPoints.isEmpty
                ? [] : send(.wifiList, BluFiAccessPoint.payload(of: configuration.accessPoints))
        case .negotiation:
            return negotiate(payload)
        case .customData:
            return [.report(.customDataReceived(payload))]
        default:
            return receiveField(message)
        }
    }

    private mutating func setOperationMode(_ payload: [UInt8]) -> [Action] {
        // The example passes the byte straight to esp_wifi_set_mode and aborts on > 3; refuse it instead.
        guard payload.count >= 1, let mode = BluFiOperationMode(rawValue: payload[0]) else {
            return sendError(.dataFormat)
        }
        let startsSoftAP = mode.includesSoftAP && !operationMode.includesSoftAP
        operationMode = mode
        // WIFI_EVENT_AP_START makes the example push a report.
        let push = startsSoftAP ? send(.wifiReport, statusReport.payload) : []
        return [.report(.operationModeChanged(mode))] + push
    }

    /// Station, SoftAP and enterprise fields, with the example's limits; everything else is dropped.
    private mutating func receiveField(_ message: BluFiMessage) -> [Action] {
        let payload = message.payload
        guard let rule = Self.fieldRules[message.type] else { return [.report(.frameDropped(message.type))] }
        guard rule.lengths.contains(payload.count) else { return sendError(.dataFormat) }
        if rule.isApplied(payload) { fields[message.type] = payload }
        return [.report(.fieldReceived(message.type, payload))]
    }

    private struct FieldRule: Sendable {
        var lengths: ClosedRange<Int>
        /// For one-byte fields: the values the example applies; it silently ignores the others.
        var appliedValues: ClosedRange<UInt8> = 0...UInt8.max
        /// Enterprise fields are accepted and ignored by the example.
        var isStored = true

        func isApplied(_ payload: [UInt8]) -> Bool {
            isStored && (payload.first.map(appliedValues.contains) ?? true)
        }
    }

    private static let unbounded = Int(UInt16.max)

    private static let fieldRules: [BluFiFrameType: FieldRule] = [
        .staBSSID: FieldRule(lengths: 6...unbounded),
        .staSSID: FieldRule(lengths: 0...31),
        .staPassword: FieldRule(lengths: 0...63),
        .softAPSSID: FieldRule(lengths: 0...31),
        // The example bounds the SoftAP password by the size of the station SSID field: 31 bytes.
        .softAPPassword: FieldRule(lengths: 0...31),
        .softAPMaxConnections: FieldRule(lengths: 1...unbounded, appliedValues: 0...4),
        .softAPAuthMode: FieldRule(lengths: 1...unbounded),
        .softAPChannel: FieldRule(lengths: 1...unbounded, appliedValues: 0...13),
        .username: FieldRule(lengths: 0...unbounded, isStored: false),
        .caCertificate: FieldRule(lengths: 0...unbounded, isStored: false),
        .clientCertificate: FieldRule(lengths: 0...unbounded, isStored: false),
        .serverCertificate: FieldRule(lengths: 0...unbounded, isStored: false),
        .clientPrivateKey: FieldRule(lengths: 0...unbounded, isStored: false),
        .serverPrivateKey: FieldRule(lengths: 0...unbounded, isStored: false),
    ]
}
