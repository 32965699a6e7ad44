import DBus
import Logging
import Transports

/// Connecting with classified retries, and the scoped GATT connection on top.
extension BlueZClient {
    /// Connects to `device`, checks that `services` resolved, runs `body`, and then stops every
    /// notification session and disconnects on every exit path, task cancellation included.
    ///
    /// Call it after discovery stopped (`findDevice` returns with discovery stopped). Each attempt has
    /// `timeouts.connectAttempt` for `Connect` plus `ServicesResolved`; failures are retried as `retryPolicy`
    /// decides. No attempt and no pause before one outlasts the caller's `deadline`, which ends connecting
    /// with `DeadlineExceeded`. Throws `BlueZError`, `CancellationError`, or what `body` throws.
    public func withConnectedDevice<Result>(
        _ device: BlueZDevice, requiring services: [String] = [], retryPolicy: BlueZRetryPolicy = BlueZRetryPolicy(),
        notifications mode: BlueZNotificationMode = .startNotify,
        pairing: BlueZPairingPolicy = .justWorks(keepBond: false), until deadline: ContinuousClock.Instant? = nil,
        _ body: (BlueZGATTConnection) async throws -> Result
    ) async throws -> Result {
        let connected = try await connect(
            device, requiring: services.map(BluetoothUUID.normalized), retryPolicy: retryPolicy, until: deadline)
        nextGATTSession += 1
        let session = nextGATTSession
        gattSessions[session] = GATTSession(
            device: connected, mode: mode, pairing: pairing,
            wasPaired: tree.device(at: connected.path)?.isPaired ?? false)
        let gatt = BlueZGATTConnection(
            device: connected, services: tree.gattServices(of: connected.path),
            reportedMTU: await currentMTU(of: connected.path) ?? tree.mtu(of: connected.path),
            client: self, session: session, pairsWhenUnanswered: pairsWhenUnanswered(session: session))
        do {
            let result = try await body(gatt)
            await tearDown(session)
            return result
        } catch {
            await tearDown(session)
            throw error
        }
    }

    /// One connection's notification sessions, ended together when its scope ends.
    struct GATTSession {
        let device: BlueZDevice
        let mode: BlueZNotificationMode
        var subscriptions: [DBusObjectPath: Subscription] = [:]
        /// What to do when the device refuses access until the link is paired.
        var pairing: BlueZPairingPolicy = .never
        /// Whether the device was paired when the link came up, so a bond made during the scope can be told apart.
        var wasPaired = false
        /// Whether this scope already tried to pair (it tries once).
        var triedPairing = false
    }

    /// Notifications on one characteristic: how to turn them off, and where their values go.
    struct Subscription {
        let notifications: NotificationSession
        let watcher: UInt64
        let continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    }

    /// Notifications that are on, and how to turn them off.
    enum NotificationSession {
        case started(DBusObjectPath)
        case acquired(BlueZNotifySocket)

        var mtu: Int? {
            if case .acquired(let socket) = self { return socket.mtu }
            return nil
        }
    }

    private func startNotifications(
        _ characteristic: BlueZGATTCharacteristic, mode: BlueZNotificationMode,
        into continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation, by limit: StepLimit
    ) async throws -> NotificationSession {
        if mode == .acquireWhereOffered, characteristic.offersAcquireNotify {
            do {
                let reply = try await limit.bounding("GATT subscribe") { timeout in
                    try await call(
                        characteristic.path, BlueZNames.gattCharacteristic, "AcquireNotify", [.properties([:])],
                        timeout: timeout)
                }
                if reply.count == 2, case .unixFD(let fd) = reply[0], let mtu = reply[1].integer {
                    return .acquired(
                        BlueZNotifySocket(fd: fd, mtu: mtu, loop: connection.loop, continuation: continuation))
                }
            } catch BlueZError.notSupported, BlueZError.notPermitted, BlueZError.failed {
                // Refused (e.g. another client holds it): the property path still works.
            }
        }
        _ = try await limit.bounding("GATT subscribe") { timeout in
            try await call(characteristic.path, BlueZNames.gattCharacteristic, "StartNotify", timeout: timeout)
        }
        return .started(characteristic.path)
    }

    /// The ATT MTU of the link now up, asked of bluetoothd after `ServicesResolved`.
    ///
    /// The tree's copy cannot be trusted: bluetoothd keeps a disconnected device's GATT objects for about
    /// 30 s, without `MTU`, and on a quick reconnect sends no `PropertiesChanged` for it although the link
    /// exchanged the MTU again. `nil` when this BlueZ does not export the property (before 5.62).
    private func currentMTU(of device: DBusObjectPath) async -> Int? {
        let characteristic = tree.services(of: device).lazy.flatMap { self.tree.characteristics(of: $0.path) }.first
        guard let characteristic else { return nil }
        let reply = try? await call(
            characteristic.path, BlueZNames.properties, "Get",
            [.string(BlueZNames.gattCharacteristic), .string("MTU")])
        return reply?.first?.integer
    }

    /// Turns notifications on for one characteristic of a connection's device and streams its values.
    ///
    /// Returns the stream and the MTU an acquired notification socket reported, if one was acquired.
    func subscribe(session: Int, to characteristic: DBusObjectPath, by limit: StepLimit) async throws -> (
        AsyncThrowingStream<[UInt8], any Error>, mtu: Int?
    ) {
        guard let state = gattSessions[session],
            let found = tree.properties(of: characteristic, BlueZNames.gattCharacteristic)
        else { throw BlueZError.linkLost("the connection scope ended") }
        if let earlier = gattSessions[session]?.subscriptions.removeValue(forKey: characteristic) {
            removeWatcher(earlier.watcher)
            earlier.continuation.finish()
            await stop(earlier.notifications)
        }
        let (stream, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let watcher = addWatcher(linkWatcher(device: state.device, notify: characteristic, into: continuation))
        do {
            let notifications = try await startNotifications(
                BlueZGATTCharacteristic(path: characteristic, properties: found), mode: state.mode, into: continuation,
                by: limit)
            guard gattSessions[session] != nil else {
                await stop(notifications)
                throw BlueZError.linkLost("the connection scope ended")
            }
            gattSessions[session]!.subscriptions[characteristic] = Subscription(
                notifications: notifications, watcher: watcher, continuation: continuation)
            return (stream, notifications.mtu)
        } catch {
            removeWatcher(watcher)
            continuation.finish()
            throw error
        }
    }

    /// Reads a characteristic's or descriptor's whole value; bluetoothd reads long values in parts.
    func readValue(_ attribute: DBusObjectPath, interface: String, by limit: StepLimit) async throws -> [UInt8] {
        let reply = try await limit.bounding("GATT read") { timeout in
            try await call(attribute, interface, "ReadValue", [.properties([:])], timeout: timeout)
        }
        guard reply.count == 1, let value = reply[0].bytes else {
            throw BlueZError.classify(DBusError.unexpectedReply("ReadValue answered \(reply)"))
        }
        return value
    }

    /// Writes one value, serialized with every other write; polls while BlueZ says InProgress.
    ///
    /// With response, bluetoothd sends a value longer than MTU − 3 as prepare/execute writes by itself.
    ///
    /// The limit covers the wait for earlier writes too: the caller's deadline is when it needs this write done.
    func writeValue(
        _ value: [UInt8], to characteristic: DBusObjectPath, type: GATTWriteType = .withResponse,
        by limit: StepLimit
    ) async throws {
        let kind = type == .withResponse ? "request" : "command"
        try await limit.bounding("GATT write") { _ in
            try await serializedWrite {
                while true {
                    do {
                        _ = try await call(
                            characteristic, BlueZNames.gattCharacteristic, "WriteValue",
                            [.bytes(value), .properties(["type": .string(kind)])], timeout: limit.remaining)
                        return
                    } catch BlueZError.inProgress(let error) {
                        guard !limit.hasPassed else { throw BlueZError.inProgress(error) }
                        try await Task.sleep(for: BlueZQuirks.writeInProgressPollInterval)
                    }
                }
            }
        }
    }

    private func connect(
        _ device: BlueZDevice, requiring services: [String], retryPolicy: BlueZRetryPolicy,
        until deadline: ContinuousClock.Instant?
    ) async throws -> BlueZDevice {
        var device = device
        var attempt = 1
        while true {
            let limit =
                deadline.map { StepLimit(timeouts.connectAttempt, within: $0) } ?? StepLimit(timeouts.connectAttempt)
            do {
                try await limit.bounding("BLE connect") { _ in
                    try await connectOnce(device, requiring: services, by: limit.deadline)
                }
                return tree.device(at: device.path) ?? device
            } catch {
                await disconnect(device.path)
                guard let failure = BlueZError.classify(error) as? BlueZError,
                    case .retry(let backoff, let reset) = retryPolicy.decision(after: failure, attempt: attempt)
                else { throw BlueZError.classify(error) }
                let clearing = reset == .removeDevice ? "forgetting the device" : "disconnecting"
                Self.log.debug(
                    "connect attempt \(attempt) to \(device.address) failed: \(failure); \(clearing), retrying in \(backoff)"
                )
                if let deadline, ContinuousClock.now + backoff >= deadline { throw DeadlineExceeded("BLE connect") }
                attempt += 1
                if reset == .removeDevice { device = try await forget(device) }
                try await Task.sleep(for: backoff)
            }
        }
    }

    private func connectOnce(_ device: BlueZDevice, requiring services: [String], by deadline: ContinuousClock.Instant)
        async throws
    {
        let path = device.path
        // LE connection creation fails or stalls on many controllers while scanning.
        if let adapter = device.adapter { try await stopDiscovery(on: adapter, keeping: discoveryScopes[adapter]) }
        // A crashed earlier run can leave the link up; Connect would then fail (bluez/bluez#89).
        if tree.device(at: path)?.isConnected != true {
            _ = try await call(
                path, BlueZNames.device, "Connect",
                timeout: max(ContinuousClock.now.duration(to: deadline), .milliseconds(1)))
        }
        try await wait(for: "services of \(device.address)", timeout: ContinuousClock.now.duration(to: deadline)) {
            event, tree in
            guard let current = tree.device(at: path) else {
                throw BlueZError.linkLost("\(device.address) was removed")
            }
            if case .propertiesChanged(let changedPath, BlueZNames.device, let changed, _) = event, changedPath == path,
                changed["Connected"]?.bool == false
            {
                throw BlueZError.linkLost("\(device.address) disconnected while resolving services")
            }
            return current.servicesResolved
        }
        try await awaitHeldBackObjects(of: device, by: deadline)
        if let missing = missingService(of: path, among: services, in: tree) {
            throw BlueZError.servicesMissing("\(device.address) has no service \(missing)")
        }
    }

    /// Asks bluetoothd for `ServicesResolved` once more, for where its answer falls in the message order.
    ///
    /// bluetoothd 5.66 registers a device's GATT objects and then sets `ServicesResolved` in one step
    /// (src/device.c `gatt_client_ready_cb`), but holds each object's signals for an idle callback of that
    /// object's own (gdbus/object.c `process_changes`), so `ServicesResolved` can reach clients before the
    /// objects' `InterfacesAdded`, or between a service's and its characteristics' (bluez/bluez#1489). Before
    /// it sends any reply it sends every change it still holds (`g_dbus_send_message` flushes them), so once
    /// this answer is in, the mirror holds every object registered before `ServicesResolved` was set.
    private func awaitHeldBackObjects(of device: BlueZDevice, by deadline: ContinuousClock.Instant) async throws {
        let reply = try await call(
            device.path, BlueZNames.properties, "Get", [.string(BlueZNames.device), .string("ServicesResolved")],
            timeout: max(ContinuousClock.now.duration(to: deadline), .milliseconds(1)))
        guard reply.first?.bool == true else {
            throw BlueZError.linkLost("\(device.address) lost its resolved services while connecting")
        }
    }

    private static let log = Logger(label: "ztprov.bluez")

    private nonisolated func missingService(
        of device: DBusObjectPath, among services: [String], in tree: BlueZObjectTree
    ) -> String? {
        let resolved = Set(tree.services(of: device).map(\.uuid))
        return services.first { !resolved.contains($0) }
    }

    /// Removes the device with its cached state and discovers it again (its path may change).
    private func forget(_ device: BlueZDevice) async throws -> BlueZDevice {
        guard let adapterPath = device.adapter, let adapter = tree.adapter(at: adapterPath) else {
            throw BlueZError.noAdapter
        }
        _ = try? await call(adapterPath, BlueZNames.adapter, "RemoveDevice", [.objectPath(device.path)])
        return try await findDevice(
            on: adapter, filter: BlueZScanFilter(address: device.address), timeout: timeouts.rediscovery)
    }

    /// Sends `Disconnect` (which also cancels a pending `Connect`) and waits for `Connected=false`; survives
    /// cancellation and ignores failures, because it is what runs when everything else failed.
    func disconnect(_ path: DBusObjectPath) async {
        guard tree.device(at: path) != nil else { return }
        _ = try? await call(path, BlueZNames.device, "Disconnect", honoursCancellation: false)
        try? await wait(for: "disconnect", timeout: timeouts.disconnect, honoursCancellation: false) { _, tree in
            tree.device(at: path)?.isConnected != true
        }
    }

    private func linkWatcher(
        device: BlueZDevice, notify: DBusObjectPath,
        into continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    ) -> Watcher {
        Watcher(
            changed: { event, tree in
                guard tree.device(at: device.path) != nil else {
                    continuation.finish(throwing: BlueZError.linkLost("\(device.address) was removed"))
                    return true
                }
                guard case .propertiesChanged(let path, let interface, let changed, _) = event else { return false }
                if path == notify, interface == BlueZNames.gattCharacteristic, let value = changed["Value"]?.bytes {
                    continuation.yield(value)
                } else if path == device.path, interface == BlueZNames.device, changed["Connected"]?.bool == false {
                    continuation.finish(throwing: BlueZError.linkLost("\(device.address) disconnected"))
                    return true
                }
                return false
            },
            ended: { continuation.finish(throwing: $0) })
    }

    private func tearDown(_ session: Int) async {
        guard let state = gattSessions.removeValue(forKey: session) else { return }
        for path in state.subscriptions.keys.sorted() {
            let subscription = state.subscriptions[path]!
            removeWatcher(subscription.watcher)
            subscription.continuation.finish()
            await stop(subscription.notifications)
        }
        await disconnect(state.device.path)
        await releasePairing(of: state)
    }

    private func stop(_ notifications: NotificationSession) async {
        switch notifications {
        case .acquired(let socket):
            socket.close()
        case .started(let characteristic):
            // Also after the device dropped the link: BlueZ keeps the notify session across reconnects.
            _ = try? await call(characteristic, BlueZNames.gattCharacteristic, "StopNotify", honoursCancellation: false)
        }
    }
}
