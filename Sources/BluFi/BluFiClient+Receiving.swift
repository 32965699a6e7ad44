/// Dispatch of complete device messages: which message is welcome in which phase.
///
/// Before the session is ready only the expected reply (VERSION, then NEG) or an ERROR may arrive;
/// anything else there is a peer violation. Once ready, reports, custom data and Wi-Fi lists are
/// accepted at any time, because the device pushes some of them unasked.
extension BluFiClient {
    mutating func handle(_ message: BluFiMessage) throws(BluFiError) -> [Action] {
        switch (message.type, phase) {
        case (.error, _):
            return try handleDeviceError(message.payload)
        case (.version, .awaitingVersion):
            guard let version = BluFiVersion(payload: message.payload) else { throw .malformedPayload(.version) }
            deviceVersion = version
            return [.report(.versionReceived(version))] + (try startSecurity())
        case (.negotiation, .awaitingDevicePublicKey(let keyPair)):
            return try completeNegotiation(keyPair: keyPair, devicePublicKey: message.payload)
        case (_, .awaitingVersion), (_, .awaitingDevicePublicKey):
            throw message.type.isDefined ? .unexpectedFrame(message.type) : .unknownFrameType(message.type)
        case (.ack, .awaitingAcknowledgement(let sequence, let request)):
            return try handleAcknowledgement(message.payload, expected: sequence, request: request)
        case (.wifiReport, _):
            return try handleReport(BluFiWiFiReport(payload: message.payload))
        case (.customData, _):
            return try handleCustomData(message.payload)
        case (.wifiList, _):
            let accessPoints = try BluFiAccessPoint.list(payload: message.payload)
            if case .awaitingWiFiList = phase { phase = .ready }
            return [.report(.wifiListReceived(accessPoints))]
        default:
            throw message.type.isDefined ? .unexpectedFrame(message.type) : .unknownFrameType(message.type)
        }
    }

    private mutating func handleDeviceError(_ payload: [UInt8]) throws(BluFiError) -> [Action] {
        guard payload.count == 1 else { throw .malformedPayload(.error) }
        let code = BluFiDeviceErrorCode(rawValue: payload[0])
        if code == .wifiScan, case .awaitingWiFiList = phase {
            phase = .ready
            return [.report(.wifiScanFailed)]
        }
        throw .deviceReportedError(code)
    }

    private mutating func handleReport(_ report: BluFiWiFiReport) throws(BluFiError) -> [Action] {
        var actions: [Action] = [.report(.wifiStatusReceived(report))]
        switch phase {
        case .awaitingWiFiStatus:
            phase = .ready
        case .awaitingWiFiConnection(let request):
            switch report.stationState {
            case .connected:
                actions.append(.report(.wifiConnected(report)))
                actions += try completeProvisioning(request, report: report)
            case .disconnected where report.endReason.map { $0 != BluFiConnectionEndReason.none } ?? false:
                throw .wifiConnectionFailed(report)
            case .disconnected, .connecting, .connectedWithoutIP:
                break
            }
        case .awaitingSoftAPStatus(let request) where report.operationMode.includesSoftAP:
            actions.append(.report(.softAPStarted(report)))
            actions += try completeProvisioning(request, report: report)
        default:
            break
        }
        return actions
    }

    private mutating func handleCustomData(_ payload: [UInt8]) throws(BluFiError) -> [Action] {
        var actions: [Action] = [.report(.customDataReceived(payload))]
        if firstCustomData == nil {
            firstCustomData = payload
            if case .awaitingDeviceID(let request, let report) = phase {
                actions += try completeProvisioning(request, report: report)
            }
        }
        return actions
    }
}
