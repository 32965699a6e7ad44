internal import Logging
import Transports

/// The steps of a join and of the way back, each with its own deadline.
extension NMSoftAPJoiner {
    /// How one wait of the access point search ends.
    private enum AccessPointWatch {
        case found(LibNMAccessPoint)
        case listChanged
    }

    /// Scans for the hotspot until a scan shows it heard since the search began, rescanning after scans
    /// that did not; an entry only an earlier scan heard is never activated (see ``NMAccessPointSearch``).
    func findAccessPoint(
        for request: WiFiJoinRequest,
        on device: LibNMWiFiDevice,
        cancellable: GCancellableHandle
    ) async throws -> LibNMAccessPoint {
        let ssid = Array(request.ssid.utf8)
        var search = NMAccessPointSearch(
            ssid: ssid, bssid: request.bssid, lastScan: device.lastScan, now: LibNMWiFiDevice.now)
        try await device.requestScan(ssid: ssid, cancellable: cancellable)
        let deadline = ContinuousClock.now + request.timeouts.scan
        while true {
            // Each listed entry's LastSeen is watched; an entry added meanwhile starts a new wait that watches it too.
            let listed = device.accessPoints
            let outcome = try await gWaitUntil(
                watching: device.scanWatches + listed.flatMap(\.lastSeenWatches),
                timeout: deadline - ContinuousClock.now,
                cancellable: cancellable,
                timedOut: Self.notFound(request.ssid, search: search, in: device)
            ) { () -> AccessPointWatch? in
                let accessPoints = device.accessPoints
                if let index = search.bestMatch(
                    in: accessPoints.map(\.summary), lastScan: device.lastScan, now: LibNMWiFiDevice.now)
                {
                    return .found(accessPoints[index])
                }
                if search.shouldRescan(lastScan: device.lastScan) {
                    Self.logScan(on: device, search: search)
                    device.requestScanInBackground(ssid: ssid)
                }
                return accessPoints.map(\.path) == listed.map(\.path) ? nil : .listChanged
            }
            if case .found(let accessPoint) = outcome { return accessPoint }
        }
    }

    /// For `-v`: a scan finished without a trusted entry; what it left listed under the SSID, `LastSeen`
    /// relative to the second the search began in.
    private static func logScan(on device: LibNMWiFiDevice, search: NMAccessPointSearch) {
        let entries = device.accessPoints.map(\.summary).filter { $0.ssid == search.ssid }
        let seen = entries.map { "\($0.bssid) last seen \(Int64($0.lastSeen) - search.beganInSecond) s" }
        networkManagerLog.debug(
            """
            NetworkManager scan finished \(device.lastScan - search.beganAt) ms after the search \
            began; \(seen.isEmpty ? "the hotspot is not listed" : seen.joined(separator: ", "))
            """)
    }

    /// Why the scan deadline passed: nothing with the SSID is listed, or only an entry no scan since the
    /// start has seen.
    private static func notFound(_ ssid: String, search: NMAccessPointSearch, in device: LibNMWiFiDevice)
        -> NetworkManagerError
    {
        guard let stale = search.staleMatch(in: device.accessPoints.map(\.summary)) else {
            return .accessPointNotFound(ssid: ssid)
        }
        let secondsAgo = max(0, (LibNMWiFiDevice.now / 1000) - Int64(stale.lastSeen))
        return .accessPointNotSeenAgain(ssid: ssid, lastSeenSecondsAgo: Int(secondsAgo))
    }

    /// Adds and activates the hotspot profile, then waits until NetworkManager reports it activated.
    func activate(
        _ request: WiFiJoinRequest,
        towards accessPoint: LibNMAccessPoint?,
        attempt: NMJoinAttempt,
        cancellable: GCancellableHandle
    ) async throws {
        // A service that hides its version gets the modern calls; the fallback still catches a missing one.
        let version = attempt.client.version ?? NMVersion(1, 20, 0)
        let profile = hotspotProfile(for: request, accessPoint: accessPoint, device: attempt.device, version: version)
        let stateLog = LibNMDeviceStateLog(device: attempt.device, client: attempt.client)
        let started = try await attempt.client.addAndActivate(
            profile.settings, device: attempt.device, accessPoint: accessPoint, volatile: version.hasAddAndActivate2)
        attempt.hasStarted = true
        attempt.activation = started.activation
        attempt.keptProfileUUID = started.isVolatile ? nil : profile.uuid
        guard let activation = started.activation else {
            throw NetworkManagerError.activationFailed(Self.failure(in: stateLog))
        }
        try await waitUntilActivated(
            activation,
            on: attempt.device,
            stateLog: stateLog,
            timeout: request.timeouts.activation,
            cancellable: cancellable,
            timedOut: NetworkManagerError.activationTimedOut(
                network: request.ssid, lastDeviceState: attempt.device.state)
        )
    }

    private func hotspotProfile(
        for request: WiFiJoinRequest,
        accessPoint: LibNMAccessPoint?,
        device: LibNMDevice,
        version: NMVersion
    ) -> NMSoftAPProfile {
        let link: NMSoftAPProfile.Link =
            switch configuration.link {
            case .wifi:
                .wifi(
                    pinnedBSSID: request.bssid.flatMap { _ in
                        accessPoint.flatMap { NMSoftAPProfile.hardwareAddressBytes($0.summary.bssid) }
                    })
            case .ethernetForTesting: .ethernetForTesting
            }
        return NMSoftAPProfile(
            request: request,
            uuid: generateConnectionUUID(),
            interfaceName: device.interfaceName,
            link: link,
            version: version,
            owner: unprivilegedUserName()
        )
    }

    /// The reason an activation gave before it vanished, as far as the device's signals tell.
    private static func failure(in stateLog: LibNMDeviceStateLog) -> NMStateReason? {
        var tracker = NMActivationTracker()
        for change in stateLog.changes {
            tracker.deviceChangedState(to: change.state, reason: change.reason)
        }
        return tracker.recordedFailure
    }

    /// Undoes what the attempt changed: hotspot down, leftover profile deleted, previous connection back.
    ///
    /// Every step runs even if one before it failed; the first error is returned.
    func tearDown(_ attempt: NMJoinAttempt, timeout: Duration) async -> (any Error)? {
        guard attempt.hasStarted else { return nil }
        var errors: [any Error] = []
        if let activation = attempt.activation {
            do {
                try await deactivate(activation, on: attempt.device, client: attempt.client, timeout: timeout)
            } catch {
                errors.append(error)
            }
        }
        if let uuid = attempt.keptProfileUUID {
            do {
                try await deleteProfile(uuid: uuid, client: attempt.client, timeout: timeout)
            } catch {
                errors.append(error)
            }
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
        on device: LibNMDevice,
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

    /// Deletes the profile the plain activation call stored, once libnm has it (it may lag the activation).
    private func deleteProfile(uuid: String, client: LibNMClient, timeout: Duration) async throws {
        let profile = try await gWaitUntil(
            watching: client.profileWatches,
            timeout: timeout,
            cancellable: nil,
            timedOut: NetworkManagerError.operationFailed(
                operation: "deleting the hotspot profile", message: "profile \(uuid) never appeared")
        ) {
            client.profile(uuid: uuid)
        }
        try await profile.delete()
    }

    /// Reactivates the previous profile, or waits for it if NetworkManager already brought it back.
    private func restore(
        _ previous: LibNMRemoteConnection,
        on device: LibNMDevice,
        client: LibNMClient,
        timeout: Duration
    ) async throws {
        do {
            let activation: LibNMActiveConnection
            let stateLog = LibNMDeviceStateLog(device: device, client: client)
            if let current = device.activeConnection, current.profile?.isSameProfile(as: previous) == true {
                activation = current
            } else {
                activation = try await client.activate(previous, device: device)
            }
            try await waitUntilActivated(
                activation,
                on: device,
                stateLog: stateLog,
                timeout: timeout,
                cancellable: nil,
                timedOut: NetworkManagerError.activationTimedOut(network: previous.id, lastDeviceState: device.state)
            )
        } catch {
            throw NetworkManagerError.restoreFailed(connection: previous.id, cause: "\(error)")
        }
    }

    private func waitUntilActivated(
        _ activation: LibNMActiveConnection,
        on device: LibNMDevice,
        stateLog: LibNMDeviceStateLog,
        timeout: Duration,
        cancellable: GCancellableHandle?,
        timedOut: @autoclosure @escaping () -> NetworkManagerError
    ) async throws {
        var tracker = NMActivationTracker()
        var signalsSeen = 0
        try await gWaitUntil(
            watching: activation.stateWatches + device.stateWatches,
            timeout: timeout,
            cancellable: cancellable,
            timedOut: timedOut()
        ) { () throws -> Void? in
            for change in stateLog.changes.dropFirst(signalsSeen) {
                tracker.deviceChangedState(to: change.state, reason: change.reason)
            }
            signalsSeen = stateLog.changes.count
            switch tracker.observe(activation.snapshot(on: device)) {
            case .pending: return nil
            case .activated: return ()
            case .failed(let reason): throw NetworkManagerError.activationFailed(reason)
            }
        }
    }
}
