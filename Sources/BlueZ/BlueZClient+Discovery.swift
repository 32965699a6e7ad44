import DBus

/// LE discovery: filter, start, report matching devices as they are seen, and always stop.
extension BlueZClient {
    /// Runs discovery on `adapter` while `body` consumes the matching devices, then stops it on every exit
    /// path (also when the task is cancelled) and clears the filter.
    ///
    /// A device is reported when it appears (`InterfacesAdded`) and each time a known device is seen again
    /// (advertisement properties such as `RSSI` change: `BlueZQuirks.advertisementProperties`). With a
    /// `duration` the stream finishes after it; without one it runs until `body` returns.
    public func withDiscovery<Result>(
        on adapter: BlueZAdapter, filter: BlueZScanFilter, duration: Duration? = nil,
        _ body: (AsyncThrowingStream<BlueZDevice, any Error>) async throws -> Result
    ) async throws -> Result {
        _ = try await call(adapter.path, BlueZNames.adapter, "SetDiscoveryFilter", [filter.discoveryFilter])
        pausedFilters[adapter.path] = nil
        let (stream, continuation) = AsyncThrowingStream<BlueZDevice, any Error>.makeStream()
        let watcher = addWatcher(
            Watcher(
                changed: { event, tree in
                    if let device = BlueZClient.sighting(event, tree, adapter: adapter.path, filter: filter) {
                        continuation.yield(device)
                    }
                    return false
                },
                ended: { continuation.finish(throwing: $0) }))
        let timer = duration.map { duration in
            connection.loop.schedule(at: .now + duration) { continuation.finish() }
        }
        // A scope opened while an outer one on this adapter is paused (a reconnect that finds the device
        // again) hands the adapter back to the outer scope when it ends.
        let outerScope = discoveryScopes[adapter.path]
        discoveryScopes[adapter.path] = filter
        defer {
            discoveryScopes[adapter.path] = outerScope
            removeWatcher(watcher)
            if let timer { connection.loop.cancelTimer(timer) }
            continuation.finish()
        }
        do {
            try await startDiscovery(on: adapter)
            let result = try await body(stream)
            try await stopDiscovery(on: adapter.path)
            return result
        } catch {
            try? await stopDiscovery(on: adapter.path)
            throw error
        }
    }

    /// Discovers until the first device matching `filter`, at most `timeout`; throws
    /// `BlueZError.deviceNotFound` when none appears. Discovery is stopped when this returns, ready to connect.
    public func findDevice(on adapter: BlueZAdapter, filter: BlueZScanFilter, timeout: Duration) async throws
        -> BlueZDevice
    {
        try await withDiscovery(on: adapter, filter: filter, duration: timeout) { devices in
            for try await device in devices {
                return device
            }
            throw BlueZError.deviceNotFound
        }
    }

    /// A device matching `filter` that the discovery this client runs on `adapter` has heard (it has an
    /// `RSSI`), else the first one heard within `timeout`; throws `BlueZError.deviceNotFound` when none is.
    ///
    /// For a caller that keeps one discovery running (``withDiscovery(on:filter:duration:_:)``) across many
    /// devices: unlike ``findDevice(on:filter:timeout:)`` this neither starts nor stops discovery.
    public func heardDevice(on adapter: BlueZAdapter, filter: BlueZScanFilter, timeout: Duration) async throws
        -> BlueZDevice
    {
        func heard(_ tree: BlueZObjectTree) -> BlueZDevice? {
            tree.devices(on: adapter.path).first { $0.rssi != nil && filter.matches($0) }
        }
        do {
            try await wait(for: "an advertisement", timeout: timeout) { event, tree in
                guard let event else { return heard(tree) != nil }
                return BlueZClient.sighting(event, tree, adapter: adapter.path, filter: filter) != nil
            }
        } catch BlueZError.timedOut {
            throw BlueZError.deviceNotFound
        }
        guard let device = tree.devices(on: adapter.path).first(where: filter.matches) else {
            throw BlueZError.deviceNotFound
        }
        return device
    }

    /// Stops the discovery this client's ``withDiscovery(on:filter:duration:_:)`` runs on `adapter` while
    /// another client connects through the same adapter; ``resumeDiscovery(on:)`` starts it again.
    ///
    /// Linux stops the scan for every LE connection it creates (net/bluetooth/hci_sync.c), and bluetoothd,
    /// seeing its discovery end while a client still holds it, starts it again on its own timer
    /// (src/adapter.c): left running, the discovery competes with the pending connection. bluetoothd itself
    /// suspends discovery only for pairing, not for `Connect`, and no controller capability it exports tells
    /// which controllers could do both, so a caller pauses around every connect. The filter stays set: bluetoothd
    /// keeps it for the resume, so the pause costs the connect one round trip. Returns whether a discovery
    /// was running.
    @discardableResult
    public func pauseDiscovery(on adapter: BlueZAdapter) async throws -> Bool {
        guard discoveringAdapters.contains(adapter.path) else { return false }
        try await stopDiscovery(on: adapter.path, keeping: discoveryScopes[adapter.path])
        return true
    }

    /// Starts a discovery paused by ``pauseDiscovery(on:)`` again with its filter; a no-op when it runs or its
    /// scope has ended. A cancelled task starts nothing; once sent, the calls are awaited to their replies so
    /// that a discovery bluetoothd started is always one this client knows it must stop.
    public func resumeDiscovery(on adapter: BlueZAdapter) async throws {
        guard let filter = discoveryScopes[adapter.path], !discoveringAdapters.contains(adapter.path) else { return }
        try Task.checkCancellation()
        if pausedFilters.removeValue(forKey: adapter.path) != filter {
            _ = try await call(
                adapter.path, BlueZNames.adapter, "SetDiscoveryFilter", [filter.discoveryFilter],
                honoursCancellation: false)
        }
        try await startDiscovery(on: adapter, honoursCancellation: false)
        // The scope may have ended while the calls were in flight: it must not leave a discovery behind.
        if discoveryScopes[adapter.path] == nil { try await stopDiscovery(on: adapter.path) }
    }

    /// The device an event shows as freshly seen on `adapter` and matching `filter`, if any.
    static func sighting(
        _ event: BlueZObjectEvent, _ tree: BlueZObjectTree, adapter: DBusObjectPath, filter: BlueZScanFilter
    ) -> BlueZDevice? {
        let seen: Bool
        switch event {
        case .interfacesAdded(_, let interfaces):
            seen = interfaces[BlueZNames.device] != nil
        case .propertiesChanged(_, let interface, let changed, _):
            seen = interface == BlueZNames.device && !BlueZQuirks.advertisementProperties.isDisjoint(with: changed.keys)
        default:
            seen = false
        }
        guard seen, let path = event.path, let device = tree.device(at: path), device.adapter == adapter,
            filter.matches(device)
        else { return nil }
        return device
    }

    private func startDiscovery(on adapter: BlueZAdapter, honoursCancellation: Bool = true) async throws {
        // InProgress here means a discovery is starting or stopping (bleak#859): back off briefly and retry.
        var attempt = 1
        while true {
            do {
                _ = try await call(
                    adapter.path, BlueZNames.adapter, "StartDiscovery", honoursCancellation: honoursCancellation)
                discoveringAdapters.insert(adapter.path)
                return
            } catch BlueZError.inProgress(let error) {
                guard attempt < 5 else { throw BlueZError.inProgress(error) }
                attempt += 1
                try await Task.sleep(for: .milliseconds(200 * attempt))
            }
        }
    }

    /// Stops the discovery this client started on `adapter` and clears its filter, unless a clean stop may
    /// leave `kept` (the open scope's filter) set for a resume. With no discovery running it clears only a
    /// filter a pause left, and only when nothing is to be kept.
    func stopDiscovery(on adapter: DBusObjectPath, keeping kept: BlueZScanFilter? = nil) async throws {
        guard discoveringAdapters.remove(adapter) != nil else {
            if kept == nil, pausedFilters.removeValue(forKey: adapter) != nil {
                try? await clearDiscoveryFilter(on: adapter)
            }
            return
        }
        var failure: (any Error)?
        do {
            _ = try await call(adapter, BlueZNames.adapter, "StopDiscovery", honoursCancellation: false)
            if let kept {
                pausedFilters[adapter] = kept
                return
            }
        } catch let error as BlueZError where BlueZQuirks.stopDiscoveryAlreadyDone(error) {
        } catch {
            failure = error
        }
        pausedFilters[adapter] = nil
        try? await clearDiscoveryFilter(on: adapter)
        if let failure { throw failure }
    }

    private func clearDiscoveryFilter(on adapter: DBusObjectPath) async throws {
        _ = try await call(
            adapter, BlueZNames.adapter, "SetDiscoveryFilter", [.properties([:])], honoursCancellation: false)
    }
}
