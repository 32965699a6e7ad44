public import CryptoPrimitives
public import Protocomm
public import Transports

/// ESP provisioning (`network_provisioning`, `wifi_provisioning`) over a connected BLE peer: find the
/// protocomm service and its endpoints, then run the same protocomm conversation SoftAP runs over HTTP.
///
/// The connection belongs to the caller's scope (the adapter disconnects it, and with it the device's
/// session). Throws ``ProvisioningError`` and `CancellationError`.
public struct ProtocommBLEProvisioner: Sendable {
    let timeouts: ProtocommTimeouts
    let random: any RandomSource

    /// A flow whose handshakes draw their ephemeral secrets from `random` (seed it in tests).
    public init(timeouts: ProtocommTimeouts = ProtocommTimeouts(), random: any RandomSource = SystemRandomSource()) {
        self.timeouts = timeouts
        self.random = random
    }

    /// Provisions the device on `connection` by `deadline`.
    ///
    /// - Parameter retryPassphrase: after the device failed to join with a wrong password and `prov-ctrl`
    ///   reset it, asked for another password; `nil`, or a provider that returns `nil`, ends the run with
    ///   the join failure.
    public func run(
        _ request: ProtocommBLERequest, on connection: any GATTConnection, address: String,
        deadline: ContinuousClock.Instant,
        retryPassphrase: (@Sendable () async throws -> Secret?)? = nil,
        progress: @escaping ProtocommProgressSink
    ) async throws -> ProtocommBLEOutcome {
        let credentials = try request.wifi.network.validatedCredentials()
        let endpoints = try await locateEndpoints(
            on: connection, advertised: request.advertisedServices, address: address, deadline: deadline)
        var conversation = ProtocommConversation(
            channel: ProtocommChannel(
                transport: ProtocommGATTTransport(connection: connection, endpoints: endpoints),
                peer: .ble(address: address), deadline: deadline),
            request: request.wifi, credentials: credentials, timeouts: timeouts, progress: progress)
        let retry = retryPassphrase.map { Self.retryCredentials(ssid: request.wifi.network.ssid, from: $0) }
        var source = random
        let summary = try await conversation.run(random: &source, retry: retry)
        return ProtocommBLEOutcome(
            endpoints: endpoints, mtu: connection.mtu, deviceVersion: summary.deviceVersion,
            security: summary.security, networks: summary.networks, connection: summary.connection,
            credentialAttempts: summary.credentialAttempts, timings: conversation.timings)
    }

    /// New credentials for `ssid` after a wrong password only: another network or failure needs another run.
    private static func retryCredentials(ssid: String, from provide: @escaping @Sendable () async throws -> Secret?)
        -> ProtocommConversation.RetryCredentials
    {
        { failure in
            guard failure.code == .protocommWiFiWrongPassword, let passphrase = try await provide() else { return nil }
            return try ProtocommTargetNetwork(ssid: ssid, passphrase: passphrase).validatedCredentials()
        }
    }

    /// Reads the endpoints' descriptions, each read within one exchange's limit and the run's `deadline`.
    func locateEndpoints(
        on connection: any GATTConnection, advertised: [String], address: String, deadline: ContinuousClock.Instant
    ) async throws -> ProtocommGATTEndpoints {
        let found: ProtocommGATTEndpoints?
        do {
            found = try await ProtocommGATTEndpoints.locate(
                on: connection, advertised: advertised, until: min(.now + timeouts.exchange, deadline))
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw ProvisioningError.protocommBLEExchange(
                ProtocommGATTExchangeError.readFailed(endpoint: "user descriptions", error), endpoint: .protocolVersion,
                phase: .describing, address: address)
        }
        guard let found else { throw ProvisioningError.protocommServiceMissing(address: address) }
        return found
    }
}

/// What one BLE protocomm run asks of the device.
public struct ProtocommBLERequest: Sendable, Equatable {
    /// The network, the session's security and the optional steps.
    public var wifi: ProtocommWiFiRequest
    /// The service UUIDs the device advertised; the provisioning service is looked for among them first.
    public var advertisedServices: [String]

    public init(wifi: ProtocommWiFiRequest, advertisedServices: [String] = []) {
        self.wifi = wifi
        self.advertisedServices = advertisedServices
    }
}

/// What a successful BLE protocomm run established.
public struct ProtocommBLEOutcome: Sendable, Equatable {
    /// The provisioning service and how its endpoints were named.
    public var endpoints: ProtocommGATTEndpoints
    /// The link's ATT MTU.
    public var mtu: Int
    /// What the device said about itself on `proto-ver`.
    public var deviceVersion: ProtocommVersionInfo
    /// The security the session ran.
    public var security: ProtocommSecurityUsed
    /// The networks the device saw, when asked for and the device can scan.
    public var networks: [ProtocommWiFiNetwork]?
    /// How the device is connected.
    public var connection: ProtocommDeviceConnection
    /// How many times credentials were sent (more than one after a reset and a retry).
    public var credentialAttempts: Int
    /// How long each step took, in order.
    public var timings: [ProtocommStepTiming]
}

extension ProvisioningError {
    /// The connected device has no service whose endpoints protocomm needs.
    static func protocommServiceMissing(address: String) -> ProvisioningError {
        ProvisioningError(
            .bleServicesMissing, "The device at \(address) offers no ESP provisioning service.",
            hint: "Check that the device is in provisioning mode and runs ESP provisioning over BLE "
                + "(`ztprov scan` shows each device's protocol); `bluetoothctl remove \(address)` clears a stale cache."
        )
    }
}
