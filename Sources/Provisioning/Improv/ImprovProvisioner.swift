import Improv
public import Logging
public import Transports

/// The Improv flow over one connected GATT peer: notifications on state, error and RPC result, then
/// capabilities and state, the authorization wait when the device asks for one, the requested
/// commands, and the Wi-Fi settings last.
///
/// Every read, write and wait is bounded by its own timeout and by the run's deadline. Failures come
/// as ``ProvisioningError``; cancellation (Ctrl-C) as `CancellationError`. Disconnecting stays with
/// the connection's scope.
public struct ImprovProvisioner: Sendable {
    let connection: any GATTConnection
    let timeouts: ImprovTimeouts
    let logger: Logger

    public init(connection: any GATTConnection, timeouts: ImprovTimeouts = ImprovTimeouts(), logger: Logger) {
        self.connection = connection
        self.timeouts = timeouts
        self.logger = logger
    }

    /// Runs `settings` and returns what the device said; finishes by `deadline`.
    public func run(
        _ settings: ImprovSettings, deadline: ContinuousClock.Instant,
        progress: @escaping @Sendable (ImprovProgress) -> Void
    ) async throws -> ImprovProvisioningOutcome {
        let requests = try settings.requests()
        let service = try ImprovGATTService(on: connection)
        let inbox = NotificationInbox<ImprovNotification>()
        var conversation = ImprovConversation(
            connection: connection, service: service, inbox: inbox, client: ImprovClient(requests: requests),
            timeouts: timeouts, deadline: deadline, ssid: settings.ssid, progress: progress, logger: logger)
        if settings.checksNetwork { conversation.networkCheck = settings.join }
        var streams: [(ImprovCharacteristic, AsyncThrowingStream<[UInt8], any Error>)] = []
        for characteristic in [ImprovCharacteristic.currentState, .errorState, .rpcResult] {
            do {
                let stream = try await connection.subscribe(
                    to: service[characteristic], until: min(.now + timeouts.write, deadline))
                streams.append((characteristic, stream))
            } catch let error as CancellationError {
                throw error
            } catch {
                throw ProvisioningError.bleLinkFailed(error, while: "turning on the device's Improv notifications")
            }
        }
        progress(.sessionStarted(mtu: connection.mtu))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            for (characteristic, stream) in streams {
                group.addTask {
                    await inbox.pump(stream) { ImprovNotification(characteristic: characteristic, value: $0) }
                }
            }
            defer { group.cancelAll() }
            do {
                return try await conversation.run()
            } catch let failure as ProvisioningError {
                guard conversation.joinFailed, let join = settings.join,
                    conversation.client.capabilities?.contains(.scanWiFi) ?? false
                else { throw failure }
                throw try await explain(failure, joining: join, service: service, inbox: inbox, deadline: deadline)
            }
        }
    }

    /// A failed or silent join explained by what the device hears now (a scan on the same connection), if
    /// the run's time allows; a scan that fails too leaves `failure` as it is.
    private func explain(
        _ failure: ProvisioningError, joining join: NetworkJoin, service: ImprovGATTService,
        inbox: NotificationInbox<ImprovNotification>, deadline: ContinuousClock.Instant
    ) async throws -> ProvisioningError {
        guard ContinuousClock.now < deadline else { return failure }
        var scan = ImprovConversation(
            connection: connection, service: service, inbox: inbox, client: ImprovClient(requests: [.scanWiFiNetworks]),
            timeouts: timeouts, deadline: deadline, ssid: nil, progress: { _ in }, logger: logger)
        return try await join.explain(failure, logger: logger) { try await scan.run().networks?.map(HeardNetwork.init) }
    }
}

/// A value the device notified, with the characteristic it came on.
struct ImprovNotification: Sendable {
    let characteristic: ImprovCharacteristic
    let value: [UInt8]
}
