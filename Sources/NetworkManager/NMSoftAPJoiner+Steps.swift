import Transports

/// The steps of a join and of the way back, each with its own deadline.
extension NMSoftAPJoiner {
    /// Scans for the hotspot until a trustworthy scan shows it, rescanning after scans that did not.
    func findAccessPoint(
        for request: WiFiJoinRequest,
        on device: LibNMWiFiDevice,
        cancellable: GCancellableHandle
    ) async throws -> LibNMAccessPoint {
        let ssid = Array(request.ssid.utf8)
        var search = NMAccessPointSearch(ssid: ssid, bssid: request.bssid, lastScan: device.lastScan)
        try await device.requestScan(ssid: ssid, cancellable: cancellable)
        return try await gWaitUntil(
            watching: device.scanWatches,
            timeout: request.timeouts.scan,
            cancellable: cancellable,
            timedOut: NetworkManagerError.accessPointNotFound(ssid: request.ssid)
        ) {
            let accessPoints = device.accessPoints
            if let index = search.bestMatch(in: accessPoints.map(\.summary)),
                search.isFresh(lastScan: device.lastScan, now: LibNMWiFiDevice.now)
            {
                return accessPoints[index]
            }
            if search.shouldRescan(lastScan: device.lastScan) { device.requestScanInBackground(ssid: ssid) }
            return nil
        }
    }

    /// Adds and activates the hotspot profile, then waits until NetworkManager reports it activated.
    func activate(
        _ request: WiFiJoinRequest,
        towards accessPoint: LibNMAccessPoint,
        attempt: NMJoinAttempt,
        cancellable: GCancellableHandle
    ) async throws {
        // A service that hides its version gets the modern calls; the fallback still catches a missing one.
        let version = attempt.client.version ?? NMVersion(1, 20, 0)
        let profile = NMSoftAPProfile(
            request: request,
            interfaceName: attempt.device.interfaceName,
            pinnedBSSID: request.bssid.flatMap { _ in NMSoftAPProfile.hardwareAddressBytes(accessPoint.summary.bssid) },
            version: version,
            owner: unprivilegedUserName()
        )
        let started = try await attempt.client.addAndActivate(
            profile.settings, device: attempt.device, accessPoint: accessPoint, volatile: version.hasAddAndActivate2)
        attempt.activation = started.activation
        attempt.temporaryProfile = started.isVolatile ? nil : started.activation.profile
        try await waitUntilActivated(
            started.activation,
            on: attempt.device,
            timeout: request.timeouts.activation,
            cancellable: cancellable,
            timedOut: NetworkManagerError.activationTimedOut(ssid: request.ssid, lastDeviceState: attempt.device.state)
        )
    }

    /// Undoes what the attempt changed: hotspot down, leftover profile deleted, previous connection back.
    ///
    /// Every step runs even if one before it failed; the first error is returned.
    func tearDown(_ attempt: NMJoinAttempt, timeout: Duration) async -> (any Error)? {
        guard let activation = attempt.activation else { return nil }
        var errors: [any Error] = []
        do {
            try await deactivate(activation, on: attempt.device, client: attempt.client, timeout: timeout)
        } catch {
            errors.append(error)
        }
        if let profile = attempt.temporaryProfile {
            do { try await profile.delete() } catch { errors.append(error) }
        }
        if let previous = attempt.previous {
            do {
                try await restore(previous, on: attempt.device, client: attempt.client, timeout: timeout)
            } catch {
                errors.append(error)
            }
        }
        return errors.first
    }

    private func deactivate(
        _ activation: LibNMActiveConnection,
        on device: LibNMWiFiDevice,
        client: LibNMClient,
        timeout: Duration
    ) async throws {
        if NMActivationTracker.isDeactivated(activation.snapshot(on: device)) { return }
        try await client.deactivate(activation)
        try await gWaitUntil(
            watching: activation.stateWatches + device.stateWatches,
            timeout: timeout,
            cancellable: nil,
            timedOut: NetworkManagerError.operationFailed(
                operation: "leaving the hotspot", message: "still active after \(timeout)")
        ) {
            NMActivationTracker.isDeactivated(activation.snapshot(on: device)) ? () : nil
        }
    }

    /// Reactivates the previous profile, or waits for it if NetworkManager already brought it back.
    private func restore(
        _ previous: LibNMRemoteConnection,
        on device: LibNMWiFiDevice,
        client: LibNMClient,
        timeout: Duration
    ) async throws {
        do {
            let activation: LibNMActiveConnection
            if let current = device.activeConnection, current.profile?.isSameProfile(as: previous) == true {
                activation = current
            } else {
                activation = try await client.activate(previous, device: device)
            }
            try await waitUntilActivated(
                activation,
                on: device,
                timeout: timeout,
                cancellable: nil,
                timedOut: NetworkManagerError.activationTimedOut(ssid: previous.id, lastDeviceState: device.state)
            )
        } catch {
            throw NetworkManagerError.restoreFailed(connection: previous.id, cause: "\(error)")
        }
    }

    private func waitUntilActivated(
        _ activation: LibNMActiveConnection,
        on device: LibNMWiFiDevice,
        timeout: Duration,
        cancellable: GCancellableHandle?,
        timedOut: @autoclosure @escaping () -> NetworkManagerError
    ) async throws {
        var tracker = NMActivationTracker()
        try await gWaitUntil(
            watching: activation.stateWatches + device.stateWatches,
            timeout: timeout,
            cancellable: cancellable,
            timedOut: timedOut()
        ) { () throws -> Void? in
            switch tracker.observe(activation.snapshot(on: device)) {
            case .pending: return nil
            case .activated: return ()
            case .failed(let reason): throw NetworkManagerError.activationFailed(reason)
            }
        }
    }
}
