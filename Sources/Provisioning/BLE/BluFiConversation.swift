import BluFi
import CryptoPrimitives
import Logging
import Transports

/// Drives one ``BluFiClient`` over a ``BluFiGATTLink``: feeds it notifications, carries out its actions
/// (writes one at a time, each awaited), keeps the deadline of the reply it waits for, and polls the
/// Wi-Fi status while the device joins, because a failed join pushes nothing.
struct BluFiConversation {
    /// How a device scan ended.
    enum ScanOutcome {
        case found([BluFiAccessPoint])
        /// The device could not start the scan (ERROR 11).
        case failed
    }

    let link: BluFiGATTLink
    let inbox: NotificationInbox<[UInt8]>
    let timeouts: BluFiTimeouts
    let deadline: ContinuousClock.Instant
    let progress: BluFiProgressSink
    let logger: Logger
    /// The network the device joins, for progress and error messages.
    var ssid: String?
    private(set) var client: BluFiClient
    private(set) var traffic: BluFiTraffic
    private(set) var result: BluFiProvisioningResult?
    private(set) var scanOutcome: ScanOutcome?
    /// The protocol failure that ended the session, if one did.
    private(set) var failure: BluFiError?
    private var waiting: (reply: BluFiAwaitedReply, since: ContinuousClock.Instant, until: ContinuousClock.Instant)?
    private var nextPoll: ContinuousClock.Instant?
    private var lastJoinState: BluFiStationState?
    private var linkIsUp = true
    private var isFinished = false

    init(
        link: BluFiGATTLink,
        client: BluFiClient,
        timeouts: BluFiTimeouts,
        deadline: ContinuousClock.Instant,
        progress: @escaping BluFiProgressSink,
        logger: Logger
    ) {
        self.link = link
        self.client = client
        self.timeouts = timeouts
        self.deadline = deadline
        self.progress = progress
        self.logger = logger
        inbox = NotificationInbox()
        traffic = BluFiTraffic(mtu: link.mtu)
    }

    /// Starts the session and runs it until requests are accepted.
    ///
    /// `drawing` draws the key pairs for the negotiation while GET_VERSION crosses the link: the host waits
    /// for that answer anyway, and a ffdhe3072 exponentiation (milliseconds, tens on a Raspberry Pi) then no
    /// longer sits between the version reply and the client's key.
    mutating func start(drawingKeyPairs drawing: Task<[DHKeyPair], Never>) async throws {
        progress(.sessionStarted(mtu: link.mtu))
        try await perform(client.connected(mtu: link.mtu))
        client.keyPairsDrawnAhead = await drawing.value
        try await run(until: \.readiness)
    }

    /// Hands a request to the client and carries out what it asks for.
    mutating func request(_ body: (inout BluFiClient) throws(BluFiError) -> [BluFiClient.Action]) async throws {
        let actions: [BluFiClient.Action]
        do {
            actions = try body(&client)
        } catch {
            throw ProvisioningError.bluFi(error, failureContext)
        }
        try await perform(actions)
    }

    /// Handles notifications, deadlines and polls until `value` is there or the session fails.
    mutating func run<Value>(until value: KeyPath<Self, Value?>) async throws -> Value {
        while true {
            if let reached = self[keyPath: value] { return reached }
            let wake = [waiting?.until, nextPoll, deadline].compactMap { $0 }.min() ?? deadline
            let item = await inbox.next(until: wake)
            try Task.checkCancellation()
            switch item {
            case .notification(let bytes):
                traffic.framesReceived += 1
                traffic.bytesReceived += bytes.count
                try await perform(client.receivedNotification(bytes))
            case .closed:
                linkIsUp = false
                try await perform(client.disconnected())
                throw ProvisioningError.bluFi(.linkLost, failureContext)
            case .failed(let error):
                linkIsUp = false
                throw ProvisioningError.bleLinkFailed(error, while: activity)
            case nil:
                try await timePassed()
            }
        }
    }

    /// After a failed or silent join: readies the session for another request (a scan that explains the
    /// failure), forgetting the join's wait and any earlier scan; false when the failure was another.
    mutating func resumeAfterFailedJoin() -> Bool {
        guard client.recoveredFromFailedJoin() else { return false }
        (waiting, nextPoll, failure, scanOutcome) = (nil, nil, nil, nil)
        return true
    }

    /// Sends DISCONNECT_BLE after success; the device closes the link, so an unconfirmed write is fine.
    mutating func finish() async {
        guard let actions = try? client.requestedDisconnect() else { return }
        for action in actions {
            switch action {
            case .write(let bytes):
                do {
                    try await write(bytes, within: timeouts.write)
                } catch {
                    logger.debug("DISCONNECT_BLE was not confirmed: \(error)")
                }
            case .report(let event): report(event)
            case .wait, .finished, .fail: break
            }
        }
    }

    /// After a failure or cancellation: asks the device to drop the link if the link is still up.
    ///
    /// A cancelled task writes directly, by the farewell's own limit: a racing timer would already be
    /// cancelled too. Links that refuse work in a cancelled task simply skip it; the adapter's scope
    /// disconnects either way.
    mutating func abandon() async {
        guard linkIsUp, !isFinished, let actions = try? client.requestedDisconnect() else { return }
        logger.debug("asking the device to close the link after a failure")
        for case .write(let bytes) in actions {
            if Task.isCancelled {
                try? await link.write(bytes, until: .now + timeouts.farewell)
            } else {
                try? await write(bytes, within: timeouts.farewell)
            }
        }
    }

    // MARK: Carrying out actions

    private mutating func perform(_ actions: [BluFiClient.Action]) async throws {
        for action in actions {
            switch action {
            case .write(let bytes):
                logger.trace("\(action)")
                try await write(bytes, within: timeouts.write)
            case .report(let event):
                report(event)
            case .wait(let reply):
                let now = ContinuousClock.now
                let step = timeouts.timeout(for: reply, scheme: client.securityScheme)
                waiting = (reply, now, min(now + step, deadline))
                nextPoll = reply == .wifiConnection || reply == .softAPStatus ? now + timeouts.statusPollInterval : nil
            case .finished:
                isFinished = true
            case .fail(let error):
                failure = error
                throw ProvisioningError.bluFi(error, failureContext)
            }
        }
        if client.awaitedReply == nil { (waiting, nextPoll) = (nil, nil) }
    }

    /// One ATT write, bounded by `limit` and the overall deadline, whichever ends first; the link takes
    /// that deadline as its own, so running out names the limit that ran out, and any other failed write
    /// means the link is gone.
    private mutating func write(_ bytes: [UInt8], within limit: Duration) async throws {
        let limit = StepLimit(limit, within: deadline)
        do {
            try await link.write(bytes, until: limit.deadline)
        } catch let error as CancellationError {
            throw error
        } catch is DeadlineExceeded {
            throw ProvisioningError.bleWriteUnconfirmed(limit.ending, while: activity)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            linkIsUp = false
            throw ProvisioningError.bleLinkFailed(error, while: activity)
        }
        traffic.framesWritten += 1
        traffic.bytesWritten += bytes.count
    }

    /// A wake-up without a notification: the overall deadline, the step's deadline, or a poll.
    private mutating func timePassed() async throws {
        let now = ContinuousClock.now
        if now >= deadline {
            var context = failureContext
            context.overallLimitReached = true
            throw ProvisioningError.bluFi(.timedOut(client.awaitedReply ?? .version), context)
        }
        if let waiting, now >= waiting.until {
            // The client either fails or moves to a new wait, which replaces this one.
            try await perform(client.deadlinePassed())
        }
        if let poll = nextPoll, now >= poll {
            nextPoll = now + timeouts.statusPollInterval
            traffic.statusPolls += 1
            try await request { client throws(BluFiError) in try client.requestedWiFiStatus() }
        }
    }

    /// Whether the device refused V2's key-exchange parameters that automatic security chose from its
    /// version: firmware on BluFi 1.4 that kept the V1 callbacks answers so.
    var deviceRejectedAutomaticV2: Bool {
        guard client.securityChoice == .automatic, client.securityScheme == .v2,
            case .deviceReportedError(let code) = failure
        else { return false }
        return code == .dhParameter || code == .readParameter || code == .makePublic
    }

    /// Present once the session accepts requests.
    private var readiness: Void? { client.isReady ? () : nil }

    // MARK: Reporting

    private mutating func report(_ event: BluFiClientEvent) {
        switch event {
        case .versionReceived(let version): progress(.versionReceived(version))
        case .versionUnavailable: progress(.versionUnavailable)
        case .negotiationStarted(let scheme): progress(.negotiationStarted(scheme))
        case .sessionReady: progress(.sessionReady(client.securityScheme ?? .none))
        case .operationModeAcknowledged(let mode): progress(.operationModeSet(mode))
        case .connectionRequested: progress(.joinRequested(ssid: ssid ?? ""))
        case .softAPConfigurationSent: progress(.softAPConfigurationSent)
        case .wifiStatusReceived(let report): noteJoinProgress(report.withoutPasswords)
        case .wifiConnected(let report): progress(.wifiConnected(report.withoutPasswords))
        case .softAPStarted(let report): progress(.softAPStarted(report.withoutPasswords))
        case .deviceIDReceived(let id): progress(.deviceIDReceived(id))
        case .deviceIDMissing: progress(.deviceIDMissing)
        case .customDataReceived(let bytes): logger.debug("custom data from the device, \(bytes.count) bytes")
        case .provisioned(let result): self.result = result
        case .wifiListReceived(let found):
            scanOutcome = .found(found)
            progress(.wifiListReceived(found.sorted { $0.rssi > $1.rssi }))
        case .wifiScanFailed: scanOutcome = .failed
        case .disconnectRequested: progress(.disconnectRequested)
        case .securityEstablished, .stationConfigurationSent, .customDataSent, .deauthenticationSent: break
        }
    }

    /// Reports how the join is going, once per state: reports that end the wait are followed by their
    /// own step (or error), and a poll every second must not become a line every second.
    private mutating func noteJoinProgress(_ report: BluFiWiFiReport) {
        guard report.stationState == .connecting || report.stationState == .connectedWithoutIP,
            report.stationState != lastJoinState
        else { return }
        lastJoinState = report.stationState
        progress(.wifiStatusChanged(report))
    }

    // MARK: Error context

    var failureContext: BluFiFailureContext {
        BluFiFailureContext(
            scheme: client.securityScheme ?? client.securityChoice.resolved(deviceVersion: client.deviceVersion),
            ssid: ssid,
            waited: waiting.map { ContinuousClock.now - $0.since },
            activity: activity
        )
    }

    /// What the flow was doing, for messages. The client knows best: it moves on to the next reply before
    /// its frames for that step are written (a link lost while sending our key belongs to the key
    /// negotiation, not to the version that came before). A failed client waits for nothing, so then the
    /// last wait counts.
    private var activity: String {
        switch client.awaitedReply ?? waiting?.reply {
        case .version: "waiting for the device's BluFi version"
        case .devicePublicKey: "negotiating keys with the device"
        case .acknowledgement: "waiting for the device to acknowledge the Wi-Fi mode"
        case .wifiConnection: "waiting for the device to join the network"
        case .softAPStatus: "waiting for the device's access point"
        case .wifiStatus: "waiting for the device's Wi-Fi status"
        case .wifiList: "waiting for the device's network scan"
        case .deviceID, .optionalDeviceID: "waiting for the device ID"
        case nil: "talking to the device"
        }
    }
}
