public import BluFi
public import CryptoPrimitives
public import Logging
public import Records
public import Transports

/// The BluFi flow over the BluFi service of one connected GATT peer (``BluFiGATTLink``): version, key exchange, Wi-Fi settings, the wait
/// for the join (polling, since a failed join pushes nothing), the device ID, and DISCONNECT_BLE.
///
/// Each operation is one BluFi session and consumes the link's notification stream, so run one
/// operation per connection. Failures come as ``ProvisioningError``; cancellation (Ctrl-C) comes as
/// `CancellationError` after the flow has asked the device to drop the link, if the link was still
/// up. Disconnecting at the BLE level stays with the adapter's scope.
public struct BluFiProvisioner: Sendable {
    /// Opens the link, subscribing by the deadline given.
    let openLink: @Sendable (ContinuousClock.Instant) async throws -> BluFiGATTLink
    let security: BluFiSecurityChoice
    let timeouts: BluFiTimeouts
    let random: any RandomSource
    let logger: Logger
    /// Whether a device rejecting automatic V2 surfaces as ``V2Rejected`` for a retry with V1.
    var reportsRejectedV2 = false
    /// The least security the session may run (`--min-security`): checked once it is negotiated, before the
    /// settings go out.
    public var minimumSecurity = SecurityLevel.none

    /// A flow over the BluFi service of `connection`, opened (``BluFiGATTLink``) when the flow starts;
    /// `random` supplies the key-exchange secret (inject a seeded source in tests).
    public init(
        connection: any GATTConnection,
        security: BluFiSecurityChoice = .automatic,
        timeouts: BluFiTimeouts = BluFiTimeouts(),
        random: any RandomSource = SystemRandomSource(),
        logger: Logger
    ) {
        self.init(
            open: { deadline in try await BluFiGATTLink.open(on: connection, until: deadline) }, security: security,
            timeouts: timeouts,
            random: random, logger: logger)
    }

    private init(
        open: @escaping @Sendable (ContinuousClock.Instant) async throws -> BluFiGATTLink,
        security: BluFiSecurityChoice,
        timeouts: BluFiTimeouts, random: any RandomSource, logger: Logger
    ) {
        self.openLink = open
        self.security = security
        self.timeouts = timeouts
        self.random = random
        self.logger = logger
    }

    /// Configures the device as `settings` say and returns once it joined (or runs its access point)
    /// and, if asked for, sent its ID; finishes by `deadline`.
    public func run(
        _ settings: WiFiSettings,
        deadline: ContinuousClock.Instant,
        progress: @escaping BluFiProgressSink
    ) async throws -> BluFiProvisioningOutcome {
        let request = settings.request
        let (result, session) = try await converse(deadline: deadline, progress: progress) { conversation in
            try minimumSecurity.admit(ProvisioningSecurity(conversation.client.securityScheme ?? .none))
            conversation.ssid = settings.stationSSID
            let join = settings.join
            if settings.listsNetworks || (settings.checksNetwork && join != nil) {
                let found = try await scan(&conversation, progress: progress)
                if settings.checksNetwork { try join?.check(found.map(HeardNetwork.init)) }
            }
            try await conversation.request { client throws(BluFiError) in try client.requestedProvisioning(request) }
            do {
                return try await conversation.run(until: \.result)
            } catch let failure as ProvisioningError {
                guard let join else { throw failure }
                throw try await explain(failure, joining: join, in: &conversation)
            }
        }
        return BluFiProvisioningOutcome(
            report: result.report.withoutPasswords,
            deviceID: result.deviceID,
            security: session.client.securityScheme ?? .none,
            deviceVersion: session.client.deviceVersion,
            traffic: session.traffic
        )
    }

    /// Asks the device to scan and returns what it found, strongest first (`--list-networks`).
    public func listNetworks(
        deadline: ContinuousClock.Instant,
        progress: @escaping BluFiProgressSink
    ) async throws -> BluFiNetworkList {
        let (found, session) = try await converse(deadline: deadline, progress: progress) { conversation in
            try await scan(&conversation, progress: progress)
        }
        return BluFiNetworkList(
            accessPoints: found.sorted { $0.rssi > $1.rssi },
            security: session.client.securityScheme ?? .none,
            deviceVersion: session.client.deviceVersion,
            traffic: session.traffic
        )
    }

    /// A failed or silent join explained by what the device hears now (a WIFI_LIST in the same session),
    /// if the run's time allows; any other failure, or a scan that fails too, leaves `failure` as it is.
    private func explain(
        _ failure: ProvisioningError, joining join: NetworkJoin, in conversation: inout BluFiConversation
    ) async throws -> ProvisioningError {
        guard ContinuousClock.now < conversation.deadline, conversation.resumeAfterFailedJoin() else { return failure }
        return try await join.explain(failure, logger: logger) {
            try await scan(&conversation, progress: { _ in }).map(HeardNetwork.init)
        }
    }

    /// One WIFI_LIST request in a ready session.
    private func scan(_ conversation: inout BluFiConversation, progress: BluFiProgressSink) async throws
        -> [BluFiAccessPoint]
    {
        progress(.wifiListRequested)
        try await conversation.request { client throws(BluFiError) in try client.requestedWiFiList() }
        guard case .found(let found) = try await conversation.run(until: \.scanOutcome) else {
            throw ProvisioningError.bluFi(.deviceReportedError(.wifiScan), conversation.failureContext)
        }
        return found
    }

    /// Opens the link: turning notifications on is a descriptor write, so it gets a write's limit.
    private func open(deadline: ContinuousClock.Instant) async throws -> BluFiGATTLink {
        let limit = StepLimit(timeouts.write, within: deadline)
        do {
            return try await openLink(limit.deadline)
        } catch is DeadlineExceeded {
            throw ProvisioningError.bleWriteUnconfirmed(limit.ending, while: "turning BluFi notifications on")
        }
    }

    /// Runs `body` inside a started session with the link's notifications flowing into the inbox;
    /// says goodbye to the device on success (returning the session as it ended, goodbye counted),
    /// and tries to on failure or cancellation.
    private func converse<Value: Sendable>(
        deadline: ContinuousClock.Instant,
        progress: @escaping BluFiProgressSink,
        _ body: (inout BluFiConversation) async throws -> Value
    ) async throws -> (Value, BluFiConversation) {
        let link = try await open(deadline: deadline)
        var conversation = BluFiConversation(
            link: link,
            client: BluFiClient(security: security, random: random),
            timeouts: timeouts,
            deadline: deadline,
            progress: progress,
            logger: logger
        )
        let inbox = conversation.inbox
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await inbox.pump(link.notifications) }
            defer { group.cancelAll() }
            do {
                let drawing = Task { [security, random] in
                    var source = random
                    return security.drawKeyPairs(using: &source)
                }
                try await conversation.start(drawingKeyPairs: drawing)
                let value = try await body(&conversation)
                await conversation.finish()
                return (value, conversation)
            } catch {
                await conversation.abandon()
                if reportsRejectedV2, conversation.deviceRejectedAutomaticV2, let error = error as? ProvisioningError {
                    throw V2Rejected(error: error)
                }
                throw error
            }
        }
    }
}

extension WiFiSettings {
    /// The SSID the station joins, if the mode has a station.
    var stationSSID: String? {
        switch mode {
        case .station(let station), .stationAndSoftAP(let station, _): station.ssid
        case .softAP: nil
        }
    }
}
