public import DBus

/// A client of bluetoothd: one bus connection and a live mirror of BlueZ's object tree.
///
/// The actor shares the connection's loop thread, so signals update the tree synchronously as they are
/// dispatched and waits observe every change in order. The tree is subscribed before it is snapshotted;
/// changes that arrive between the two are replayed onto the snapshot by arrival order.
public actor BlueZClient {
    struct Watcher {
        /// Sees each change after it was applied; returns true when the watcher is done.
        let changed: (BlueZObjectEvent, BlueZObjectTree) -> Bool
        /// Called once if the mirror stops (bus lost or client closed).
        let ended: (any Error) -> Void
    }

    let connection: DBusConnection
    /// Deadlines for each step.
    public let timeouts: BlueZTimeouts
    /// The part of bluetoothd's objects mirrored.
    let scope: BlueZMirrorScope
    /// The current mirror of bluetoothd's objects in `scope`.
    public private(set) var tree = BlueZObjectTree()
    /// Devices outside `scope` whose link was up when the mirror was taken, for
    /// ``releaseStaleConnections(matching:)``.
    var linksOutsideScope: [BlueZDevice] = []
    private var snapshotSequence: UInt64?
    private var earlyEvents: [(sequence: UInt64, event: BlueZObjectEvent)] = []
    private var watchers: [UInt64: Watcher] = [:]
    private var nextWatcher: UInt64 = 0
    private var endedBecause: (any Error)?
    private var waits: [UInt64: (continuation: CheckedContinuation<Void, any Error>, watcher: UInt64?, timer: Int)] =
        [:]
    /// Adapters where this client runs a discovery session, so a connect can stop it first.
    var discoveringAdapters: Set<DBusObjectPath> = []
    /// The filter of each open discovery scope, so a paused discovery can start again as it was.
    var discoveryScopes: [DBusObjectPath: BlueZScanFilter] = [:]
    /// The filter bluetoothd still holds for a discovery this client paused: since BlueZ 5.55 StopDiscovery
    /// keeps a client's filter for its next StartDiscovery (src/adapter.c, `discovery_remove`).
    var pausedFilters: [DBusObjectPath: BlueZScanFilter] = [:]
    /// Open GATT connection scopes by number, with their notification sessions.
    var gattSessions: [Int: GATTSession] = [:]
    var nextGATTSession = 0
    private var writeInFlight = false
    private var writeQueue: [CheckedContinuation<Void, Never>] = []

    /// The connection's loop thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { connection.unownedExecutor }

    private init(connection: DBusConnection, timeouts: BlueZTimeouts, scope: BlueZMirrorScope) {
        self.connection = connection
        self.timeouts = timeouts
        self.scope = scope
    }

    /// Connects to bluetoothd, mirrors the objects in `scope`, runs `body`, and closes the connection on every
    /// exit path.
    ///
    /// Throws `BlueZError.bluetoothdNotRunning` when nothing owns `org.bluez`.
    public static func withClient<Result>(
        bus: DBusConnection.Bus = .system, timeouts: BlueZTimeouts = BlueZTimeouts(),
        mirroring scope: BlueZMirrorScope = .allAdapters, _ body: (BlueZClient) async throws -> Result
    ) async throws -> Result {
        let connection: DBusConnection
        do {
            connection = try await DBusConnection.open(bus, handshakeTimeout: timeouts.busHandshake)
        } catch {
            throw BlueZError.classify(error)
        }
        let client = BlueZClient(connection: connection, timeouts: timeouts, scope: scope)
        do {
            try await client.mirror()
            let result = try await body(client)
            await client.close()
            return result
        } catch {
            await client.close()
            throw error
        }
    }

    /// Chooses an adapter and checks that it is powered.
    public func adapter(
        _ selector: BlueZAdapterSelector = .firstPowered, slots: any BlueZSlotLookup = UdevSlotLookup()
    ) throws -> BlueZAdapter {
        try selector.select(from: tree.adapters, slots: slots)
    }

    /// Calls a BlueZ method, translating failures into `BlueZError`.
    func call(
        _ path: DBusObjectPath, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
        timeout: Duration? = nil, honoursCancellation: Bool = true
    ) async throws -> [DBusValue] {
        let call = DBusMethodCall(
            destination: BlueZNames.service, path: path, interface: interface, member: member, arguments: arguments)
        do {
            return try await connection.call(
                call, timeout: timeout ?? timeouts.call, honoursCancellation: honoursCancellation)
        } catch {
            throw BlueZError.classify(error)
        }
    }

    private func close() async {
        end(BlueZError.busLost(.disconnected("the BlueZ client was closed")))
        await connection.close()
    }

    private func mirror() async throws {
        do {
            for rule in scope.rules {
                _ = try await connection.subscribe(
                    rule, timeout: timeouts.call,
                    deliver: { [weak self] signal, sequence in
                        self?.assumeIsolated { $0.received(signal, sequence: sequence) }
                    },
                    end: { [weak self] error in self?.assumeIsolated { $0.end(BlueZError(error)) } })
            }
            _ = try await connection.subscribe(
                BlueZClient.bluetoothdOwnerRule, timeout: timeouts.call,
                deliver: { [weak self] signal, _ in
                    guard signal.arguments.count == 3, signal.arguments[2].string == "" else { return }
                    let gone = DBusError(name: DBusError.Name.serviceUnknown, message: "bluetoothd left the bus")
                    self?.assumeIsolated { $0.end(BlueZError.bluetoothdNotRunning(gone)) }
                },
                end: { _ in })
            let reply = try await connection.sequencedCall(
                DBusMethodCall(
                    destination: BlueZNames.service, path: .root, interface: BlueZNames.objectManager,
                    member: "GetManagedObjects"),
                timeout: timeouts.call, honoursCancellation: true)
            take(try BlueZObjectEvent(managedObjects: reply.arguments))
            snapshotSequence = reply.sequence
        } catch {
            throw BlueZError.classify(error)
        }
        for early in earlyEvents where early.sequence > snapshotSequence! {
            apply(early.event)
        }
        earlyEvents.removeAll()
    }

    /// `NameOwnerChanged` for `org.bluez`: an empty new owner means bluetoothd exited, and every wait on the
    /// mirror fails at once instead of at its deadline.
    static let bluetoothdOwnerRule = DBusMatchRule(
        sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
        arg0: BlueZNames.service)

    /// Mirrors the part of a snapshot in scope, and notes the links up outside it.
    private func take(_ snapshot: BlueZObjectEvent) {
        guard case .snapshot(let objects) = snapshot else { return }
        tree.apply(.snapshot(objects.filter { scope.contains($0.key) }))
        let outside = objects.keys.sorted().filter { !scope.contains($0) }
        linksOutsideScope = outside.compactMap { path in
            objects[path]?[BlueZNames.device].map { BlueZDevice(path: path, properties: $0) }
        }
        .filter(\.isConnected)
    }

    private func received(_ signal: DBusSignal, sequence: UInt64) {
        guard let event = BlueZObjectEvent(signal: signal), event.path.map(scope.contains) ?? false else { return }
        guard snapshotSequence != nil else {
            earlyEvents.append((sequence, event))
            return
        }
        apply(event)
    }

    private func apply(_ event: BlueZObjectEvent) {
        tree.apply(event)
        for token in watchers.keys.sorted() {
            guard let watcher = watchers[token] else { continue }
            if watcher.changed(event, tree) { watchers[token] = nil }
        }
    }

    private func end(_ error: any Error) {
        guard endedBecause == nil else { return }
        endedBecause = error
        let ended = watchers
        watchers.removeAll()
        for token in ended.keys.sorted() {
            ended[token]!.ended(error)
        }
    }

    /// Registers a watcher; if the mirror already ended, it is told at once.
    func addWatcher(_ watcher: Watcher) -> UInt64 {
        nextWatcher += 1
        if let endedBecause {
            watcher.ended(endedBecause)
        } else {
            watchers[nextWatcher] = watcher
        }
        return nextWatcher
    }

    /// Forgets a watcher.
    func removeWatcher(_ token: UInt64) {
        watchers[token] = nil
    }

    /// Waits until `condition` returns true for a change (or for the current tree, checked first with no
    /// event), or throws what it throws; `BlueZError.timedOut` after `timeout`.
    ///
    /// With `honoursCancellation: false` the wait survives task cancellation, for cleanup.
    func wait(
        for what: String, timeout: Duration, honoursCancellation: Bool = true,
        until condition: @escaping (BlueZObjectEvent?, BlueZObjectTree) throws -> Bool
    ) async throws {
        if try condition(nil, tree) { return }
        if honoursCancellation { try Task.checkCancellation() }
        nextWatcher += 1
        let token = nextWatcher
        guard honoursCancellation else {
            return try await suspend(token, what: what, timeout: timeout, condition: condition)
        }
        try await withTaskCancellationHandler {
            try await self.suspend(token, what: what, timeout: timeout, condition: condition)
        } onCancel: { [loop = connection.loop] in
            loop.execute { [weak self] in self?.assumeIsolated { $0.finishWait(token, .failure(CancellationError())) } }
        }
    }

    private func suspend(
        _ token: UInt64, what: String, timeout: Duration,
        condition: @escaping (BlueZObjectEvent?, BlueZObjectTree) throws -> Bool
    ) async throws {
        try await withCheckedThrowingContinuation { continuation in
            startWait(token, what: what, timeout: timeout, condition: condition, continuation: continuation)
        }
    }

    private func startWait(
        _ token: UInt64, what: String, timeout: Duration,
        condition: @escaping (BlueZObjectEvent?, BlueZObjectTree) throws -> Bool,
        continuation: CheckedContinuation<Void, any Error>
    ) {
        let timer = connection.loop.schedule(at: .now + timeout) { [weak self] in
            self?.assumeIsolated { $0.finishWait(token, .failure(BlueZError.timedOut(what))) }
        }
        waits[token] = (continuation, nil, timer)
        let watcher = addWatcher(
            Watcher(
                changed: { event, tree in
                    do {
                        if try condition(event, tree) { self.finishWait(token, .success(())) }
                    } catch {
                        self.finishWait(token, .failure(error))
                    }
                    return false
                },
                ended: { self.finishWait(token, .failure($0)) }))
        if waits[token] != nil { waits[token]!.watcher = watcher }
    }

    private func finishWait(_ token: UInt64, _ result: Result<Void, any Error>) {
        guard let wait = waits.removeValue(forKey: token) else { return }
        if let watcher = wait.watcher { removeWatcher(watcher) }
        connection.loop.cancelTimer(wait.timer)
        wait.continuation.resume(with: result)
    }

    /// Runs one write at a time, in arrival order, across all GATT clients of this connection.
    func serializedWrite<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        if writeInFlight {
            await withCheckedContinuation { writeQueue.append($0) }
        } else {
            writeInFlight = true
        }
        defer {
            if writeQueue.isEmpty { writeInFlight = false } else { writeQueue.removeFirst().resume() }
        }
        return try await body()
    }
}
