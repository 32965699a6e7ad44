public import CryptoPrimitives

/// The device side of BluFi, as strict as ESP-IDF's component plus its reference example.
///
/// Rules, in ESP-IDF's order for every write:
/// 1. Exact length (error 9, sequence not consumed), sequence (error 0, not advanced), decryption
///    (error 2), checksum (error 1); then the requested ACK; then reassembly (error 9 or 12).
/// 2. The device protects its own frames only as the last SET_SEC_MODE says, and never NEG or ERROR.
/// 3. Unknown subtypes are dropped without an answer; so is GET_WIFI_LIST when nothing was found.
/// 4. No clock: a CONNECT_AP only starts the join; ``wifiJoinCompleted()`` finishes it with the
///    configured outcome. A failed join pushes nothing — the phone has to poll.
///
/// Sequence numbers, security mode, keys and any half-received message reset on every connection;
/// the Wi-Fi settings and state survive, as they do on a real device.
public struct BluFiDeviceSession: Sendable {
    /// One thing for the emulator's GATT server to do.
    public enum Action: Sendable, Equatable {
        /// Send these bytes as one notification on FF02.
        case notify([UInt8])
        /// Record what happened.
        case report(BluFiDeviceEvent)
        /// Close the BLE link (after DISCONNECT_BLE).
        case disconnect
    }

    /// Where the emulated station stands.
    public enum StationStatus: Sendable, Equatable {
        /// No attempt yet.
        case idle
        /// CONNECT_AP received; waiting for ``BluFiDeviceSession/wifiJoinCompleted()``.
        case connecting
        /// Joined, with an IP address.
        case connected
        /// The last attempt failed for this reason.
        case failed(BluFiConnectionEndReason, rssi: Int8)
    }

    /// How this device behaves.
    public let configuration: BluFiDeviceConfiguration
    /// The Wi-Fi mode, as set by the last SET_OPMODE.
    public internal(set) var operationMode: BluFiOperationMode
    /// The station's join state.
    public internal(set) var stationStatus: StationStatus = .idle
    /// Station and SoftAP fields as received, keyed by their frame type.
    public internal(set) var fields: [BluFiFrameType: [UInt8]] = [:]
    /// The protection of the device's own frames, as set by the last SET_SEC_MODE on this connection.
    public internal(set) var securityMode: BluFiSecurityMode = []
    var random: any RandomSource
    var encoder = BluFiFrameEncoder(direction: .deviceToPhone, attMTU: nil)
    var decoder = BluFiFrameDecoder()
    var pendingParameterLength: Int?
    var isConnected = false

    /// A device waiting for a connection; `random` supplies its DH private exponents.
    public init(configuration: BluFiDeviceConfiguration = BluFiDeviceConfiguration(), random: some RandomSource) {
        self.configuration = configuration
        self.random = random
        operationMode = configuration.initialOperationMode
    }

    /// A phone connected (and, if it did, exchanged the MTU): fresh sequence numbers, no keys.
    public mutating func connected(mtu: Int?) {
        encoder = BluFiFrameEncoder(direction: .deviceToPhone, attMTU: mtu)
        decoder = BluFiFrameDecoder()
        securityMode = []
        pendingParameterLength = nil
        isConnected = true
    }

    /// The phone disconnected.
    public mutating func disconnected() {
        isConnected = false
    }

    /// One ATT write to FF01.
    public mutating func receivedWrite(_ bytes: [UInt8]) -> [Action] {
        guard isConnected else { return [] }
        let frame: BluFiFrame
        do {
            frame = try decoder.decodeFrame(bytes)
        } catch {
            return sendError(for: error)
        }
        var actions: [Action] = []
        if frame.control.contains(.acknowledgementRequired) { actions += send(.ack, [frame.sequence]) }
        do {
            guard let message = try decoder.reassemble(frame) else { return actions }
            return actions + dispatch(message)
        } catch {
            return actions + sendError(for: error)
        }
    }

    /// The station's join finished with the configured outcome (no SSID configured: network not found).
    public mutating func wifiJoinCompleted() -> [Action] {
        guard stationStatus == .connecting else { return [] }
        let outcome = fields[.staSSID] == nil ? .networkNotFound : configuration.wifiOutcome
        switch outcome {
        case .joins:
            stationStatus = .connected
            guard isConnected else { return [] }
            let report = send(.wifiReport, statusReport.payload)
            return report + (configuration.deviceID.map { send(.customData, Array($0.utf8)) } ?? [])
        case .wrongPassword:
            stationStatus = .failed(.fourWayHandshakeTimeout, rssi: configuration.failureRSSI)
        case .networkNotFound:
            stationStatus = .failed(.noAPFound, rssi: -128)
        }
        return []
    }

    /// The firmware sends application bytes as CUSTOM_DATA.
    public mutating func requestedCustomData(_ bytes: [UInt8]) -> [Action] {
        guard isConnected else { return [] }
        return send(.customData, bytes)
    }

    /// The report GET_WIFI_STATUS answers, built as the reference example builds it.
    public var statusReport: BluFiWiFiReport {
        var report = BluFiWiFiReport(operationMode: operationMode, stationState: .disconnected)
        switch stationStatus {
        case .idle:
            report.endReason = BluFiConnectionEndReason.none
            report.rssi = -128
        case .connecting:
            report.stationState = .connecting
            report.maximumConnectionRetries = configuration.maximumConnectionRetries
        case .connected:
            report.stationState = .connected
            report.stationBSSID = configuration.joinedBSSID
            report.stationSSID = fields[.staSSID]
        case .failed(let reason, let rssi):
            report.endReason = reason
            report.rssi = rssi
        }
        return report
    }

    // MARK: Sending

    /// Encodes a message under the current security mode; an impossible encryption becomes error 3.
    mutating func send(_ type: BluFiFrameType, _ payload: [UInt8]) -> [Action] {
        do {
            return try encoder.encode(BluFiMessage(type, payload), control: protection(for: type)).map(Action.notify)
        } catch {
            return sendError(.encrypt, cause: error)
        }
    }

    mutating func sendError(for error: BluFiError) -> [Action] {
        sendError(error.deviceErrorCode, cause: error)
    }

    mutating func sendError(_ code: BluFiDeviceErrorCode, cause: BluFiError? = nil) -> [Action] {
        // ERROR frames are never protected and one byte never fragments, so encoding cannot fail.
        let frames = (try? encoder.encode(BluFiMessage(.error, [code.rawValue]))) ?? []
        return frames.map(Action.notify) + [.report(.errorSent(code, cause: cause))]
    }

    private func protection(for type: BluFiFrameType) -> BluFiFrameControl {
        if type.kind == .control { return securityMode.contains(.controlChecksum) ? .checksum : [] }
        guard type != .negotiation && type != .error else { return [] }
        var control: BluFiFrameControl = []
        if securityMode.contains(.dataChecksum) { control.insert(.checksum) }
        if securityMode.contains(.dataEncryption) { control.insert(.encrypted) }
        return control
    }
}

extension BluFiError {
    /// The code ESP-IDF reports for a frame-level failure.
    var deviceErrorCode: BluFiDeviceErrorCode {
        switch self {
        case .sequenceMismatch: .sequence
        case .checksumMismatch: .checksum
        case .encryptedBeforeNegotiation, .cryptoFailed: .decrypt
        case .fragmentRestarted: .messageState
        default: .dataFormat
        }
    }
}
