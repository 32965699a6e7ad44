/// Connecting with classified retries, and the scoped GATT session on top.
extension BlueZClient {
    /// Connects to `device`, resolves `profile`, turns notifications on, runs `body`, and then stops
    /// notifications and disconnects on every exit path, task cancellation included.
    ///
    /// Call it after discovery stopped (`findDevice` returns with discovery stopped). Each attempt has
    /// `timeouts.connectAttempt` for `Connect` plus `ServicesResolved`; failures are retried as `retryPolicy`
    /// decides. Throws `BlueZError`, `CancellationError`, or what `body` throws.
    public func withConnectedDevice<Result>(
        _ device: BlueZDevice, profile: BlueZGATTProfile = .bluFi, retryPolicy: BlueZRetryPolicy = BlueZRetryPolicy(),
        notifications mode: BlueZNotificationMode = .startNotify, _ body: (BlueZGATTClient) async throws -> Result
    ) async throws -> Result {
        let (connected, write, notify) = try await connect(device, profile: profile, retryPolicy: retryPolicy)
        let (notifications, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let watcher = addWatcher(linkWatcher(device: connected, notify: notify.path, into: continuation))
        var session: NotificationSession?
        do {
            session = try await startNotifications(notify, mode: mode, into: continuation)
            let linkMTU = await currentMTU(of: write.path)
            let gatt = BlueZGATTClient(
                device: connected,
                mtu: linkMTU ?? session?.mtu ?? write.mtu ?? notify.mtu ?? BlueZQuirks.defaultATTMTU,
                notifications: notifications, client: self, writeCharacteristic: write.path)
            let result = try await body(gatt)
            await tearDown(connected.path, session: session, watcher: watcher, continuation)
            return result
        } catch {
            await tearDown(connected.path, session: session, watcher: watcher, continuation)
            throw error
        }
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
        into continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    ) async throws -> NotificationSession {
        if mode == .acquireWhereOffered, characteristic.offersAcquireNotify {
            do {
                let reply = try await call(
                    characteristic.path, BlueZNames.gattCharacteristic, "AcquireNotify", [.properties([:])])
                if reply.count == 2, case .unixFD(let fd) = reply[0], let mtu = reply[1].integer {
                    return .acquired(
                        BlueZNotifySocket(fd: fd, mtu: mtu, loop: connection.loop, continuation: continuation))
                }
            } catch BlueZError.notSupported, BlueZError.notPermitted, BlueZError.failed {
                // Refused (e.g. another client holds it): the property path still works.
            }
        }
        _ = try await call(characteristic.path, BlueZNames.gattCharacteristic, "StartNotify")
        return .started(characteristic.path)
    }

    /// The ATT MTU of the link now up, asked of bluetoothd after `ServicesResolved`.
    ///
    /// The tree's copy cannot be trusted: bluetoothd keeps a disconnected device's GATT objects for about
    /// 30 s, without `MTU`, and on a quick reconnect sends no `PropertiesChanged` for it although the link
    /// exchanged the MTU again. `nil` when this BlueZ does not export the property (before 5.62).
    private func currentMTU(of characteristic: DBusObjectPath) async -> Int? {
        let reply = try? await call(
            characteristic, BlueZNames.properties, "Get",
            [.string(BlueZNames.gattCharacteristic), .string("MTU")])
        return reply?.first?.integer
    }

    /// Writes one value with response, serialized with every other write; polls while BlueZ says InProgress.
    func writeValue(_ value: [UInt8], to characteristic: DBusObjectPath) async throws {
        let deadline = ContinuousClock.now + timeouts.write
        try await serializedWrite {
            while true {
                do {
                    _ = try await call(
                        characteristic, BlueZNames.gattCharacteristic, "WriteValue",
                        [.bytes(value), .properties(["type": .string("request")])],
                        timeout: max(ContinuousClock.now.duration(to: deadline), .milliseconds(1)))
                    return
                } catch BlueZError.inProgress(let error) {
                    guard ContinuousClock.now < deadline else { throw BlueZError.inProgress(error) }
                    try await Task.sleep(for: BlueZQuirks.writeInProgressPollInterval)
                }
            }
        }
    }

    private func connect(_ device: BlueZDevice, profile: BlueZGATTProfile, retryPolicy: BlueZRetryPolicy)
        async throws -> (BlueZDevice, write: BlueZGATTCharacteristic, notify: BlueZGATTCharacteristic)
    {
        var device = device
        var attempt = 1
        while true {
            do {
                let (write, notify) = try await connectOnce(device, profile: profile)
                return (tree.device(at: device.path) ?? device, write, notify)
            } catch {
                await disconnect(device.path)
                guard let failure = BlueZError.classify(error) as? BlueZError,
                    case .retry(let backoff, let reset) = retryPolicy.decision(after: failure, attempt: attempt)
                else { throw BlueZError.classify(error) }
                attempt += 1
                if reset == .removeDevice { device = try await forget(device) }
                try await Task.sleep(for: backoff)
            }
        }
    }

    private func connectOnce(_ device: BlueZDevice, profile: BlueZGATTProfile) async throws -> (
        write: BlueZGATTCharacteristic, notify: BlueZGATTCharacteristic
    ) {
        let path = device.path
        // LE connection creation fails or stalls on many controllers while scanning (research §1.6).
        if let adapter = device.adapter { try await stopDiscovery(on: adapter) }
        let deadline = ContinuousClock.now + timeouts.connectAttempt
        // A crashed earlier run can leave the link up; Connect would then fail (bluez/bluez#89).
        if tree.device(at: path)?.isConnected != true {
            _ = try await call(path, BlueZNames.device, "Connect", timeout: timeouts.connectAttempt)
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
        guard let found = profile.locate(on: path, in: tree) else {
            throw BlueZError.servicesMissing(
                "\(device.address) has no service \(profile.service) with both characteristics")
        }
        return found
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

    private func tearDown(
        _ device: DBusObjectPath, session: NotificationSession?, watcher: UInt64,
        _ continuation: AsyncThrowingStream<[UInt8], any Error>.Continuation
    ) async {
        removeWatcher(watcher)
        continuation.finish()
        switch session {
        case .acquired(let socket):
            socket.close()
        case .started(let characteristic):
            // Also after the device dropped the link: BlueZ keeps the notify session across reconnects.
            _ = try? await call(characteristic, BlueZNames.gattCharacteristic, "StopNotify", honoursCancellation: false)
        case nil:
            break
        }
        await disconnect(device)
    }
}
