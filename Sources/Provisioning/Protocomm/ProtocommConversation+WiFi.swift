import Protocomm

/// The Wi-Fi steps of the conversation: scan, credentials, status polls, and the reset after a failure.
extension ProtocommConversation {
    /// The device's scan list, when the request asks for it and the device advertises `wifi_scan`.
    mutating func listNetworks(_ info: ProtocommVersionInfo, security: ProtocommSecurityUsed) async throws
        -> [ProtocommWiFiNetwork]?
    {
        let networks = try await channel.listNetworks(
            wanted: request.listsNetworks || request.checksNetwork, from: info, capability: .wifiScan,
            start: ProtocommWiFiScanRequest.start(ProtocommWiFiScanOptions()), statusMessage: "RespScanStatus",
            timeouts: timeouts, security: security, progress: progress)
        if let networks { progress(.networksListed(networks)) }
        return networks
    }

    /// A failed or silent join explained by the device's scan, when the device can scan and the run's time
    /// allows; any other failure, or a scan that fails too, leaves `failure` as it is.
    mutating func explain(_ failure: ProvisioningError, info: ProtocommVersionInfo, security: ProtocommSecurityUsed)
        async throws -> ProvisioningError
    {
        guard Self.joinFailures.contains(failure.code), info.has(.wifiScan), ContinuousClock.now < channel.deadline
        else { return failure }
        return try await request.join.explain(failure) {
            try await channel.scanNetworks(
                start: ProtocommWiFiScanRequest.start(ProtocommWiFiScanOptions()), statusMessage: "RespScanStatus",
                timeouts: timeouts, phase: .session(security)
            ).map(HeardNetwork.init)
        }
    }

    /// The failures a scan can explain: the device could not join, or was still trying when time ran out.
    static let joinFailures: Set<ErrorCode> = [
        .protocommWiFiNotFound, .protocommWiFiWrongPassword, .protocommWiFiJoinFailed, .protocommWiFiConnectTimeout,
    ]

    /// "Set config" with the network's name and password, then "apply".
    mutating func sendCredentials(security: ProtocommSecurityUsed) async throws {
        let phase = ProtocommPhase.session(security)
        _ = try await configure(.setConfig(credentials), phase: phase)
        progress(.credentialsSent(ssid: request.network.ssid))
        _ = try await configure(.applyConfig, phase: phase)
        progress(.credentialsApplied)
    }

    /// Polls the station state until the device reports connected or failed, within the connect limit.
    mutating func awaitConnection(security: ProtocommSecurityUsed) async throws -> ProtocommDeviceConnection {
        let ssid = request.network.ssid
        let phase = ProtocommPhase.awaitingConnection(ssid: ssid)
        deviceWasReset = false
        var polling = ProtocommStatusPolling(timeouts: timeouts)
        var reported: UInt32?? = .none
        while true {
            try await channel.pause(polling.nextPause(), before: polling.step, endpoint: .config, phase: phase)
            guard case .status(let status) = try await configure(.getStatus, phase: phase, step: polling.step) else {
                throw ProvisioningError.protocommProtocol(
                    .malformedMessage("RespGetStatus"), endpoint: .config, phase: phase, on: channel.peer)
            }
            switch status {
            case .connecting(let attemptsRemaining):
                if reported != .some(attemptsRemaining) {
                    reported = .some(attemptsRemaining)
                    progress(.deviceConnecting(attemptsRemaining: attemptsRemaining))
                }
            case .connected(let report):
                let connection = ProtocommDeviceConnection(report)
                progress(.deviceConnected(connection))
                return connection
            case .failed, .disconnected, .unrecognized:
                let wasReset = try await resetAfterFailure(security: security)
                deviceWasReset = wasReset
                throw ProvisioningError.protocommDeviceWiFiFailed(status, ssid: ssid, wasReset: wasReset)
            }
        }
    }

    private mutating func configure(
        _ command: ProtocommWiFiConfigRequest, phase: ProtocommPhase,
        step: (deadline: ContinuousClock.Instant, limit: Duration)? = nil
    ) async throws -> ProtocommWiFiConfigResponse {
        try await channel.exchange(command, on: .config, phase: phase, limit: timeouts.exchange, step: step) {
            .protocommConfigRejected($0, applying: command == .applyConfig)
        }
    }

    /// `prov-ctrl` reset, so the device takes new credentials without a power cycle. Firmware
    /// before ESP-IDF 5.1 has no such endpoint; any refusal only changes the hint.
    private mutating func resetAfterFailure(security: ProtocommSecurityUsed) async throws -> Bool {
        guard request.resetsDeviceAfterFailure else { return false }
        let command = ProtocommWiFiControlRequest.reset
        do {
            let reply = try await channel.exchangeEncrypted(
                command.serializedBytes(), on: .control, phase: .session(security), limit: timeouts.exchange)
            _ = try command.response(from: reply)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            progress(.deviceResetUnavailable)
            return false
        }
        progress(.deviceReset)
        return true
    }
}
