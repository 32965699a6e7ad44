/// The Wi-Fi side of an emulated device: the `prov-config`, `prov-scan` and `prov-ctrl` handlers and the
/// provisioning manager's state machine behind them (ESP-IDF's `components/wifi_provisioning/src/`
/// `wifi_config.c`, `wifi_scan.c`, `handlers.c`, `manager.c`).
///
/// Rules it keeps from ESP-IDF 5.5: before any apply the station reads `Connecting`; "set config"
/// checks lengths only and stores; a second "apply" is `InternalError` until a reset; a failed
/// join stays failed (and keeps reporting its reason) until `reset`; `reprov` needs auto-stop
/// disabled; the first `Connected` report ends provisioning unless auto-stop is disabled.
/// Handlers take and return plaintext; a throw means the device closes the connection.
public struct ProtocommDeviceWiFi: Sendable {
    /// Where the station is in the provisioning manager's state machine.
    public enum Station: Hashable, Sendable {
        /// Provisioning started, no credentials applied yet.
        case awaitingCredentials
        /// Applied; this many more status polls answer `Connecting`.
        case connecting(pollsLeft: Int)
        /// Joined; status polls report this connection.
        case connected(ProtocommWiFiConnection)
        /// Gave up; status polls report this reason until a reset.
        case failed(ProtocommWiFiFailureReason)
    }

    enum Scan: Sendable {
        case idle
        case running(pollsLeft: Int, results: [ProtocommWiFiNetwork])
        case finished([ProtocommWiFiNetwork])
    }

    /// The staged behaviour this state machine plays out.
    public let plan: ProtocommDeviceWiFiPlan
    /// The last credentials "set config" stored.
    public private(set) var credentials: ProtocommWiFiCredentials?
    /// The station state the next status poll starts from.
    public private(set) var station = Station.awaitingCredentials
    /// True once a `Connected` status went out with auto-stop enabled: the real device stops its
    /// HTTP server and SoftAP about a second later.
    public private(set) var hasFinishedProvisioning = false
    var scan = Scan.idle

    /// A device that has just started provisioning: no credentials, no scan.
    public init(plan: ProtocommDeviceWiFiPlan) {
        self.plan = plan
    }

    /// Handles a `prov-config` request.
    public mutating func receivedConfigRequest(_ plaintext: [UInt8]) throws(ProtocommError) -> [UInt8] {
        let request: ProtocommWiFiConfigRequest
        do {
            request = try ProtocommWiFiConfigRequest(serializedBytes: plaintext)
        } catch .invalidSSIDLength, .invalidPassphraseLength, .invalidBSSIDLength {
            return ProtocommWiFiConfigResponse.configSet.wirePayload(status: .invalidArgument).wireBytes
        }
        switch request {
        case .getStatus:
            return ProtocommWiFiConfigResponse.status(reportStatus()).serializedBytes()
        case .setConfig(let credentials):
            self.credentials = credentials
            return ProtocommWiFiConfigResponse.configSet.serializedBytes()
        case .applyConfig:
            guard credentials != nil, station == .awaitingCredentials else {
                return ProtocommWiFiConfigResponse.configApplied.wirePayload(status: .internalError).wireBytes
            }
            station = .connecting(pollsLeft: plan.connectingPolls)
            return ProtocommWiFiConfigResponse.configApplied.serializedBytes()
        }
    }

    /// Handles a `prov-ctrl` request.
    public mutating func receivedControlRequest(_ plaintext: [UInt8]) throws(ProtocommError) -> [UInt8] {
        let request = try ProtocommWiFiControlRequest(serializedBytes: plaintext)
        let allowed =
            switch request {
            case .reset: if case .failed = station { true } else { false }
            case .reprovision: plan.allowsReprovisioning
            }
        let response: ProtocommWiFiControlResponse = request == .reset ? .reset : .reprovision
        guard allowed else { return response.wirePayload(status: .internalError).wireBytes }
        credentials = nil
        station = .awaitingCredentials
        hasFinishedProvisioning = false
        return response.serializedBytes()
    }

    /// One status poll: counts down the connecting polls, then settles on the plan's outcome.
    private mutating func reportStatus() -> ProtocommWiFiStatus {
        switch station {
        case .awaitingCredentials:
            return .connecting(attemptsRemaining: nil)
        case .connecting(let pollsLeft) where pollsLeft > 0:
            station = .connecting(pollsLeft: pollsLeft - 1)
            return .connecting(attemptsRemaining: nil)
        case .connecting:
            station = settledStation()
            return reportStatus()
        case .connected(let connection):
            if !plan.allowsReprovisioning { hasFinishedProvisioning = true }
            return .connected(connection)
        case .failed(let reason):
            return .failed(reason)
        }
    }

    private func settledStation() -> Station {
        guard let credentials else { return .failed(.networkNotFound) }
        let network = plan.networks.first { $0.ssid == credentials.ssid }
        switch plan.outcome {
        case .connect(let ipAddress):
            return .connected(Self.connection(ipAddress: ipAddress, credentials: credentials, network: network))
        case .fail(let reason):
            return .failed(reason)
        case .checkPassphrases(let passphrases, let ipAddress):
            guard let network else { return .failed(.networkNotFound) }
            let expected = network.ssidText.flatMap { passphrases[$0] } ?? ""
            guard Array(expected.utf8) == credentials.passphrase else { return .failed(.authenticationError) }
            return .connected(Self.connection(ipAddress: ipAddress, credentials: credentials, network: network))
        }
    }

    private static func connection(
        ipAddress: String, credentials: ProtocommWiFiCredentials, network: ProtocommWiFiNetwork?
    ) -> ProtocommWiFiConnection {
        ProtocommWiFiConnection(
            ipAddress: ipAddress,
            authMode: network?.authMode ?? (credentials.passphrase.isEmpty ? .open : .wpa2PSK),
            ssid: credentials.ssid,
            bssid: network?.bssid ?? [],
            channel: Int32(network?.channel ?? 0))
    }
}
