import CDBus
import Glibc
import Logging

/// A private connection to a message bus, driven by its own loop thread.
///
/// Every libdbus call happens on the loop thread: the actor runs on `DBusLoopExecutor`, and libdbus's
/// callbacks run there during polling. Method calls carry deadlines enforced by loop timers, so a deadline
/// fires even when the calling task is cancelled and the call is cleanup that must still finish.
public actor DBusConnection {
    /// Which bus to connect to.
    public enum Bus: Sendable, Hashable {
        /// The system bus: `DBUS_SYSTEM_BUS_ADDRESS` when set, else the standard socket.
        case system
        /// A bus at an explicit address such as `unix:path=/tmp/run/system_bus_socket`.
        case address(String)
    }

    struct PendingCall {
        let pending: OpaquePointer
        let timer: Int
        let continuation: CheckedContinuation<Result<Reply, any Error>, Never>
    }

    public struct Reply: Sendable {
        /// The reply's arguments.
        public let arguments: [DBusValue]
        /// The position of the reply among received messages, to order it against signals.
        public let sequence: UInt64
    }

    struct Subscription {
        let rule: DBusMatchRule
        let deliver: @Sendable (DBusSignal, UInt64) -> Void
        let end: @Sendable (DBusError) -> Void
    }

    public nonisolated let loop: DBusLoopExecutor
    private var handle: OpaquePointer?
    /// Objects served with canned answers, by path.
    var servedObjects: [String: @Sendable (String, String) -> CannedAnswer] = [:]
    private var socketSource: Int?
    private var calls: [UInt64: PendingCall] = [:]
    var subscriptions: [UInt64: Subscription] = [:]
    private var nextToken: UInt64 = 0
    private var receivedCount: UInt64 = 0
    private var closedBecause: DBusError?
    private let watches = DBusSocketWatches()

    /// The loop thread; actors sharing the connection's thread return this as their executor.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    private init(loop: DBusLoopExecutor) {
        self.loop = loop
    }

    // Isolated, so it runs on the loop thread and may still close a connection nobody closed.
    isolated deinit {
        if let handle {
            dbus_connection_close(handle)
            dbus_connection_unref(handle)
        }
        loop.stop()
    }

    /// Connects privately to `bus` and registers with it (`Hello`), within `handshakeTimeout`.
    ///
    /// The handshake (authentication, then `Hello`) runs on the loop like any call, so a bus that
    /// accepts the connection and never answers costs at most `handshakeTimeout` (``DBusError/noHandshake(_:)``)
    /// and cancelling the task ends the wait at once; libdbus's own `dbus_bus_register` would block the
    /// thread for 25 s instead.
    public static func open(_ bus: Bus, handshakeTimeout: Duration = .seconds(10)) async throws -> DBusConnection {
        let connection = DBusConnection(loop: DBusLoopExecutor())
        try await connection.connect(bus)
        do {
            try await connection.register(within: handshakeTimeout)
        } catch {
            await connection.close()
            throw error
        }
        return connection
    }

    /// Calls a method and returns the reply's arguments.
    ///
    /// Throws `DBusError` with the peer's error name, `DBusError.timedOut` after `timeout`, or
    /// `CancellationError` when the task is cancelled and `honoursCancellation` is true (the pending call is
    /// then cancelled in libdbus). Cleanup calls pass `honoursCancellation: false` so they still run in a
    /// cancelled task.
    public func call(
        _ call: DBusMethodCall, timeout: Duration, honoursCancellation: Bool = true
    ) async throws -> [DBusValue] {
        try await sequencedCall(call, timeout: timeout, honoursCancellation: honoursCancellation).arguments
    }

    /// Closes the connection; pending calls fail and subscriptions end with `DBusError.disconnected`.
    public func close() {
        shutDown(because: .disconnected("the connection was closed"))
    }

    public func sequencedCall(_ call: DBusMethodCall, timeout: Duration, honoursCancellation: Bool) async throws
        -> Reply
    {
        let started = ContinuousClock.now
        do {
            let reply = try await unloggedCall(call, timeout: timeout, honoursCancellation: honoursCancellation)
            Self.log.debug(
                "D-Bus \(call.destination) \(call) (\(call.arguments.count) arguments): \(reply.arguments.count) values in \(Self.milliseconds(since: started)) ms"
            )
            return reply
        } catch {
            Self.log.debug("D-Bus \(call.destination) \(call): \(error) after \(Self.milliseconds(since: started)) ms")
            throw error
        }
    }

    /// The debug log (`-v`): method, argument and reply counts, time; never argument values, which
    /// carry BluFi frames.
    private static let log = Logger(label: "ztprov.dbus")

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int64 {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    private func unloggedCall(_ call: DBusMethodCall, timeout: Duration, honoursCancellation: Bool) async throws
        -> Reply
    {
        if honoursCancellation { try Task.checkCancellation() }
        nextToken += 1
        let token = nextToken
        let result: Result<Reply, any Error>
        if honoursCancellation {
            result = await withTaskCancellationHandler {
                await awaitReply(call, timeout: timeout, token: token, honoursCancellation: true)
            } onCancel: { [loop] in
                loop.execute { [weak self] in
                    self?.assumeIsolated { $0.finish(token, .failure(CancellationError())) }
                }
            }
        } else {
            result = await awaitReply(call, timeout: timeout, token: token, honoursCancellation: false)
        }
        return try result.get()
    }

    /// Records a reply from the pending-call callback; runs on the loop thread.
    func replyArrived(_ token: UInt64, _ result: Result<[DBusValue], DBusError>) {
        receivedCount += 1
        let sequence = receivedCount
        finish(token, result.map { Reply(arguments: $0, sequence: sequence) }.mapError { $0 })
    }

    /// Hands a signal to every matching subscription; runs on the loop thread from the filter.
    func signalArrived(_ signal: DBusSignal) {
        receivedCount += 1
        for token in subscriptions.keys.sorted() {
            guard let subscription = subscriptions[token], subscription.rule.matches(signal) else { continue }
            subscription.deliver(signal, receivedCount)
        }
    }

    /// Removes a subscription and its match rule without waiting for the bus.
    func unsubscribe(_ token: UInt64) {
        guard let subscription = subscriptions.removeValue(forKey: token), let handle else { return }
        dbus_bus_remove_match(handle, subscription.rule.text, nil)
    }

    func addSubscription(_ subscription: Subscription) -> UInt64 {
        nextToken += 1
        subscriptions[nextToken] = subscription
        return nextToken
    }

    /// Opens the socket; the handshake is left to ``register(within:)``.
    private func connect(_ bus: Bus) throws(DBusError) {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let address: String
        switch bus {
        case .system:
            address = getenv("DBUS_SYSTEM_BUS_ADDRESS").map { String(cString: $0) } ?? Self.systemBusDefaultAddress
        case .address(let given):
            address = given
        }
        guard let connection = dbus_connection_open_private(address, &error) else { throw DBusError(error) }
        // libdbus would otherwise call _exit() when the bus goes away.
        dbus_connection_set_exit_on_disconnect(connection, 0)
        handle = connection
        _ = dbus_connection_set_watch_functions(
            connection, DBusSocketWatches.add, DBusSocketWatches.remove, nil,
            Unmanaged.passRetained(watches).toOpaque(), DBusSocketWatches.release)
        let context = Unmanaged.passRetained(DBusCallbackContext(connection: self, token: 0)).toOpaque()
        _ = dbus_connection_add_filter(connection, DBusCallbacks.filter, context, DBusCallbacks.releaseContext)
        var fd: Int32 = -1
        _ = dbus_connection_get_unix_fd(connection, &fd)
        socketSource = loop.addSource(
            DBusLoopExecutor.Source(
                fd: fd,
                prepare: { [weak self] in self?.assumeIsolated { $0.prepareSocket() } ?? 0 },
                handle: { [weak self] _ in
                    self?.assumeIsolated { $0.serviceSocket() }
                    return true
                }
            ))
    }

    /// libdbus's built-in system bus address, used when `DBUS_SYSTEM_BUS_ADDRESS` is not set.
    static let systemBusDefaultAddress = "unix:path=/var/run/dbus/system_bus_socket"

    /// Authenticates and says `Hello` as a call on the loop, then tells libdbus the name the bus gave.
    private func register(within timeout: Duration) async throws {
        let hello = DBusMethodCall(
            destination: "org.freedesktop.DBus", path: DBusObjectPath(unchecked: "/org/freedesktop/DBus"),
            interface: "org.freedesktop.DBus", member: "Hello")
        let reply: [DBusValue]
        do {
            reply = try await unloggedCall(hello, timeout: timeout, honoursCancellation: true).arguments
        } catch let error as DBusError where error.name == DBusError.Name.timeout {
            throw DBusError.noHandshake(timeout)
        }
        guard case .string(let name)? = reply.first, let handle else {
            throw DBusError.unexpectedReply("Hello did not answer with a unique name")
        }
        dbus_bus_set_unique_name(handle, name)
    }

    private func awaitReply(
        _ call: DBusMethodCall, timeout: Duration, token: UInt64, honoursCancellation: Bool
    ) async -> Result<Reply, any Error> {
        await withCheckedContinuation { continuation in
            do {
                try send(call, timeout: timeout, token: token, continuation: continuation)
                // A cancellation that came before the call was registered found nothing to end (the handler's
                // `finish` ran first): end the call now rather than at its timeout.
                if honoursCancellation, Task.isCancelled { finish(token, .failure(CancellationError())) }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
    }

    private func send(
        _ call: DBusMethodCall, timeout: Duration, token: UInt64,
        continuation: CheckedContinuation<Result<Reply, any Error>, Never>
    ) throws(DBusError) {
        guard let handle else { throw closedBecause ?? .disconnected("the connection is not open") }
        let message = try DBusMessageWriter.message(for: call)
        defer { dbus_message_unref(message) }
        var pending: OpaquePointer?
        precondition(dbus_connection_send_with_reply(handle, message, &pending, CDBus_TIMEOUT_INFINITE) != 0)
        guard let pending else { throw .disconnected("the connection closed before \(call) was sent") }
        let context = Unmanaged.passRetained(DBusCallbackContext(connection: self, token: token)).toOpaque()
        _ = dbus_pending_call_set_notify(pending, DBusCallbacks.replyArrived, context, DBusCallbacks.releaseContext)
        let description = call.description
        let timer = loop.schedule(at: .now + timeout) { [weak self] in
            self?.assumeIsolated { $0.finish(token, .failure(DBusError.timedOut(description))) }
        }
        calls[token] = PendingCall(pending: pending, timer: timer, continuation: continuation)
    }

    private func finish(_ token: UInt64, _ result: Result<Reply, any Error>) {
        guard let call = calls.removeValue(forKey: token) else { return }
        loop.cancelTimer(call.timer)
        if dbus_pending_call_get_completed(call.pending) == 0 {
            dbus_pending_call_cancel(call.pending)
        }
        dbus_pending_call_unref(call.pending)
        call.continuation.resume(returning: result)
    }

    private func prepareSocket() -> Int16 {
        dispatchQueued()
        guard let handle else { return 0 }
        let writing =
            dbus_connection_get_is_authenticated(handle) != 0
            ? dbus_connection_has_messages_to_send(handle) != 0 : watches.wantsToWrite
        return Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0)
    }

    private func serviceSocket() {
        guard let handle else { return }
        let open = dbus_connection_read_write(handle, 0) != 0
        dispatchQueued()
        if !open || dbus_connection_get_is_connected(handle) == 0 {
            shutDown(because: .disconnected("the bus closed the connection"))
        }
    }

    private func dispatchQueued() {
        while let handle, dbus_connection_dispatch(handle) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    private func shutDown(because reason: DBusError) {
        guard let connection = handle else { return }
        closedBecause = reason
        handle = nil
        if let socketSource { loop.removeSource(socketSource) }
        socketSource = nil
        for token in calls.keys.sorted() {
            finish(token, .failure(reason))
        }
        let ended = subscriptions
        subscriptions.removeAll()
        for token in ended.keys.sorted() {
            ended[token]!.end(reason)
        }
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }
}

extension DBusError {
    init(_ error: CDBus.DBusError) {
        self.init(
            name: error.name.map { String(cString: $0) } ?? DBusError.Name.disconnected,
            message: error.message.map { String(cString: $0) } ?? "")
    }
}
