import Improv
import Logging
import Transports

/// Drives one ``ImprovClient`` over a GATT connection: carries out its reads and writes (each bounded),
/// feeds it notifications, and keeps the deadline of what it waits for.
struct ImprovConversation {
    let connection: any GATTConnection
    let service: ImprovGATTService
    let inbox: NotificationInbox<ImprovNotification>
    let timeouts: ImprovTimeouts
    let deadline: ContinuousClock.Instant
    let ssid: String?
    let progress: @Sendable (ImprovProgress) -> Void
    let logger: Logger
    /// The network `--check-network` judges by the device's scan before the settings go; nil: no check.
    var networkCheck: NetworkJoin?
    /// Whether the run failed because the device could not join, or said nothing while joining.
    private(set) var joinFailed = false
    private(set) var client: ImprovClient
    private var outcome: ImprovProvisioningOutcome
    private var waiting: (reply: ImprovAwaitedReply, until: ContinuousClock.Instant)?

    init(
        connection: any GATTConnection, service: ImprovGATTService, inbox: NotificationInbox<ImprovNotification>,
        client: ImprovClient, timeouts: ImprovTimeouts, deadline: ContinuousClock.Instant, ssid: String?,
        progress: @escaping @Sendable (ImprovProgress) -> Void, logger: Logger
    ) {
        self.connection = connection
        self.service = service
        self.inbox = inbox
        self.client = client
        self.timeouts = timeouts
        self.deadline = deadline
        self.ssid = ssid
        self.progress = progress
        self.logger = logger
        outcome = ImprovProvisioningOutcome(mtu: connection.mtu)
    }

    /// Runs the client from connecting to its last request.
    mutating func run() async throws -> ImprovProvisioningOutcome {
        var pending = client.connected()
        while true {
            if pending.isEmpty {
                pending = try await nextEvent()
                continue
            }
            let action = pending.removeFirst()
            logger.trace("improv: \(action)")
            switch action {
            case .read(let characteristic):
                let value = try await read(characteristic)
                pending += client.readCompleted(characteristic, value: value)
            case .write(let bytes):
                try await write(bytes)
            case .report(let event):
                report(event)
                if case .networks(let found) = event { try networkCheck?.check(found.map(HeardNetwork.init)) }
            case .wait(let reply):
                if reply == .result(.sendWiFiSettings), let ssid { progress(.joinRequested(ssid: ssid)) }
                waiting = (reply, min(.now + timeouts.timeout(for: reply), deadline))
            case .finished:
                return outcome
            case .fail(let error):
                switch error {
                case .device(.unableToConnect, .sendWiFiSettings), .noReply(.sendWiFiSettings): joinFailed = true
                default: break
                }
                throw ProvisioningError.improv(error, failureContext)
            }
        }
    }

    /// Waits for a notification or the wait's deadline and returns what the client makes of it.
    private mutating func nextEvent() async throws -> [ImprovClient.Action] {
        guard let waiting, client.awaitedReply != nil else { throw ProvisioningError.improvSessionStalled }
        let item = await inbox.next(until: waiting.until)
        try Task.checkCancellation()
        switch item {
        case .notification(let notification):
            logger.trace("improv: \(notification.value.count)-byte notification on \(notification.characteristic)")
            return client.notified(notification.characteristic, value: notification.value)
        case .closed:
            throw ProvisioningError.bleLinkFailed(ImprovLinkClosed(), while: activity)
        case .failed(let error):
            throw ProvisioningError.bleLinkFailed(error, while: activity)
        case nil:
            if ContinuousClock.now >= deadline, waiting.reply != .authorization {
                throw ProvisioningError.improvOverallTimeout(while: activity)
            }
            return client.deadlinePassed()
        }
    }

    private func read(_ characteristic: ImprovCharacteristic) async throws -> [UInt8] {
        let (connection, target) = (connection, service[characteristic])
        return try await bounded(timeouts.read, "reading the device's \(characteristic)") { until in
            try await connection.read(target, until: until)
        }
    }

    private func write(_ bytes: [UInt8]) async throws {
        let (connection, target) = (connection, service.rpcCommand)
        try await bounded(timeouts.write, activity) { until in
            try await connection.write(bytes, to: target, type: .withResponse, until: until)
        }
    }

    /// One GATT operation, given the earlier of `limit` from now and the run's deadline; running out is the
    /// step's timeout, any other failure means the link is gone.
    private func bounded<Value: Sendable>(
        _ limit: Duration, _ doing: String, _ operation: (ContinuousClock.Instant) async throws -> Value
    ) async throws -> Value {
        let start = ContinuousClock.now
        let limit = StepLimit(limit, within: deadline, now: start)
        do {
            return try await operation(limit.deadline)
        } catch let error as CancellationError {
            throw error
        } catch is DeadlineExceeded {
            throw ProvisioningError.improvStepTimedOut(doing, within: max(start.duration(to: limit.deadline), .zero))
        } catch {
            throw ProvisioningError.bleLinkFailed(error, while: doing)
        }
    }

    private mutating func report(_ event: ImprovClientEvent) {
        switch event {
        case .connected(let state, let capabilities):
            (outcome.initialState, outcome.capabilities) = (state, capabilities)
        case .authorizationRequired:
            outcome.waitedForAuthorization = true
            progress(.authorizationRequired(within: timeouts.authorization))
            return
        case .authorized, .stateChanged: break
        case .identifySent: outcome.identified = true
        case .deviceInfo(let info): outcome.deviceInfo = info
        case .networks(let found):
            let sorted = found.sorted { $0.rssi > $1.rssi }
            outcome.networks = sorted
            progress(.device(.networks(sorted)))
            return
        case .hostname(let name): outcome.hostname = name
        case .deviceName(let name): outcome.deviceName = name
        case .provisioned(let url): (outcome.joinedSSID, outcome.redirectURL) = (ssid, url)
        }
        progress(.device(event))
    }

    var failureContext: ImprovFailureContext {
        ImprovFailureContext(ssid: ssid, activity: activity, capabilities: client.capabilities)
    }

    /// What the flow was doing, for messages.
    private var activity: String {
        switch client.awaitedReply ?? waiting?.reply {
        case .authorization: "waiting for the device to be authorized"
        case .result(.sendWiFiSettings): "waiting for the device to join the network"
        case .result(let command): "waiting for the device's answer to \(command)"
        case .moreNetworks: "waiting for the device's network scan"
        case nil: "talking Improv with the device"
        }
    }
}

/// The notification streams ended while the flow still waited: the link closed under it.
struct ImprovLinkClosed: Error, CustomStringConvertible {
    var description: String { "the device's notifications ended" }
}
