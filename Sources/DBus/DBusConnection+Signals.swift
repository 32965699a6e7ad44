/// Match-rule subscriptions: the bus routes matching signals here and each subscriber filters again locally.
extension DBusConnection {
    /// The bus daemon's own object, which takes `AddMatch`.
    static let busDaemon = DBusMethodCall(
        destination: "org.freedesktop.DBus", path: DBusObjectPath(unchecked: "/org/freedesktop/DBus"),
        interface: "org.freedesktop.DBus", member: "AddMatch")

    /// Subscribes to signals matching `rule`, returning once the bus has installed the rule.
    ///
    /// Signals arrive in order; the stream ends with `DBusError.disconnected` if the connection goes away, and
    /// ending iteration removes the match rule. Buffering is unbounded on purpose: a dropped GATT notification
    /// would corrupt a protocol session, and the radio bounds the rate.
    public func signals(
        matching rule: DBusMatchRule, timeout: Duration = .seconds(5)
    ) async throws -> AsyncThrowingStream<DBusSignal, any Error> {
        let (stream, continuation) = AsyncThrowingStream<DBusSignal, any Error>.makeStream()
        let token = try await subscribe(
            rule, timeout: timeout,
            deliver: { signal, _ in continuation.yield(signal) },
            end: { continuation.finish(throwing: $0) })
        continuation.onTermination = { [loop] _ in
            loop.execute { [weak self] in self?.assumeIsolated { $0.unsubscribe(token) } }
        }
        return stream
    }

    /// Registers a handler called on the loop thread for each matching signal (with its arrival sequence
    /// number), then installs the match rule on the bus.
    ///
    /// The handler is registered first, so nothing the bus routes after installing the rule is missed.
    public func subscribe(
        _ rule: DBusMatchRule, timeout: Duration,
        deliver: @escaping @Sendable (DBusSignal, UInt64) -> Void,
        end: @escaping @Sendable (DBusError) -> Void
    ) async throws -> UInt64 {
        let token = addSubscription(Subscription(rule: rule, deliver: deliver, end: end))
        var addMatch = DBusConnection.busDaemon
        addMatch.arguments = [.string(rule.text)]
        do {
            _ = try await call(addMatch, timeout: timeout)
        } catch {
            subscriptions[token] = nil
            throw error
        }
        return token
    }
}
