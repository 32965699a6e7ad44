import BlueZ
import Provisioning

/// The discovery each BLE lane of a batch keeps running from its first unit to its last, on a bus
/// connection of its own, so units are picked from what the adapter already heard instead of each unit
/// starting and stopping a scan of its own.
///
/// Each lane's client mirrors only its own adapter (``BlueZMirrorScope``): the bus then sends it that
/// adapter's discovery reports and links, not every other lane's as well.
///
/// A lane's discovery pauses while that lane connects (``pausing(_:_:)``, see
/// `BlueZClient.pauseDiscovery(on:)` for why) and runs again once the link is up; other lanes keep
/// discovering. It stops when the lane's work ends, on every path.
actor BatchBLEDiscoveries {
    struct Lane: Sendable {
        let client: BlueZClient
        let adapter: BlueZAdapter
    }

    private var lanes: [String: Lane] = [:]

    /// The lane's running discovery, while its scope is open.
    func lane(_ name: String) -> Lane? { lanes[name] }

    private func open(_ name: String, _ lane: Lane?) { lanes[name] = lane }

    /// Runs `connect` with `lane`'s discovery stopped. `connect` calls the resume it is given once the link
    /// is up, so the lane hears its next unit while this one is provisioned; when it never gets there (the
    /// connect failed) the discovery starts again as `connect` ends. A resume that fails is left to the
    /// lane's next scan (``ensureRunning(_:)``), so it never fails a unit that is already connected; under
    /// cancellation the discovery stays stopped and the lane's scope ends it.
    nonisolated func pausing<Result>(
        _ lane: String, _ connect: (_ resume: @escaping @Sendable () async -> Void) async throws -> Result
    ) async throws -> Result {
        guard let running = await self.lane(lane) else { throw CancellationError() }
        do {
            try await running.client.pauseDiscovery(on: running.adapter)
        } catch {
            throw ProvisioningError.fromBlueZ(error, while: "pausing discovery on \(lane) to connect")
        }
        let resume: @Sendable () async -> Void = { try? await running.client.resumeDiscovery(on: running.adapter) }
        do {
            let result = try await connect(resume)
            await resume()
            return result
        } catch {
            await resume()
            throw error
        }
    }

    /// Makes sure `lane`'s discovery runs before a unit is looked for in what it heard: it restarts one
    /// that a failed resume left stopped, and names the failure when it cannot.
    nonisolated func ensureRunning(_ lane: String) async throws {
        guard let running = await self.lane(lane) else { throw CancellationError() }
        do {
            try await running.client.resumeDiscovery(on: running.adapter)
        } catch {
            throw ProvisioningError.fromBlueZ(error, while: "restarting discovery on \(lane)")
        }
    }

    /// The batch's lane scope (``BatchLaneScope``): the lane's own client is opened, discovery runs on it in a
    /// child task, `work` starts once it runs, and cancelling the child when `work` returns stops it.
    ///
    /// The client outlives `work` on every path: under Ctrl-C the discovery child ends at once, but a unit's
    /// `Disconnect` still travels on this client, so closing it first would leave that unit's link up.
    nonisolated func scope(
        _ lane: String, heard: @escaping @Sendable (BatchSighting) async -> Void, work: () async -> Void
    ) async throws {
        // bluetoothd names every adapter with one path element; no adapter can have any other name.
        guard let scope = BlueZMirrorScope(adapter: lane) else {
            throw ProvisioningError.fromBlueZ(BlueZError.noAdapter, while: "starting discovery on \(lane)")
        }
        do {
            try await BlueZClient.withClient(bus: BusHandshake.systemBus, mirroring: scope) { client in
                let adapter = try await client.adapter(.name(lane))
                try await run(Lane(client: client, adapter: adapter), named: lane, heard: heard, work: work)
            }
        } catch let error as ProvisioningError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ProvisioningError.fromBlueZ(error, while: "starting discovery on \(lane)")
        }
    }

    private nonisolated func run(
        _ running: Lane, named lane: String, heard: @escaping @Sendable (BatchSighting) async -> Void,
        work: () async -> Void
    ) async throws {
        let (started, signal) = AsyncThrowingStream<Void, any Error>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await running.client.withDiscovery(on: running.adapter, filter: BlueZScanFilter()) { devices in
                        signal.yield()
                        for try await device in devices {
                            await heard(
                                BatchSighting(
                                    lane: lane, address: device.address, name: device.name, rssi: device.rssi))
                        }
                    }
                    signal.finish()
                } catch {
                    signal.finish(throwing: error)
                    throw error
                }
            }
            var discovering = false
            for try await _ in started {
                discovering = true
                break
            }
            guard discovering else { throw CancellationError() }
            await open(lane, running)
            await work()
            group.cancelAll()
            await open(lane, nil)
            try await group.waitForAll()
        }
    }
}
