import BlueZ
import Provisioning

/// The discovery each BLE lane of a batch keeps running from its first unit to its last, on a bus
/// connection of its own, so units are picked from what the adapter already heard instead of each unit
/// starting and stopping a scan of its own.
///
/// The discovery is not stopped around `Connect`: on a controller that cannot scan and connect at once,
/// Linux pauses the scan for the LE connection itself and bluetoothd resumes it (net/bluetooth/hci_conn.c,
/// src/adapter.c), so the one session per lane holds. It stops when the lane's work ends, on every path.
actor BatchBLEDiscoveries {
    struct Lane: Sendable {
        let client: BlueZClient
        let adapter: BlueZAdapter
    }

    private var lanes: [String: Lane] = [:]

    /// The lane's running discovery, while its scope is open.
    func lane(_ name: String) -> Lane? { lanes[name] }

    private func open(_ name: String, _ lane: Lane?) { lanes[name] = lane }

    /// The batch's lane scope (``BatchLaneScope``): discovery runs in a child task on the lane's own client,
    /// `work` starts once it runs, and cancelling the child when `work` returns stops it.
    nonisolated func scope(
        _ lane: String, heard: @escaping @Sendable (BatchSighting) async -> Void, work: () async -> Void
    ) async throws {
        let (started, signal) = AsyncThrowingStream<Void, any Error>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await self.discover(on: lane, heard: heard) { signal.yield() }
                    signal.finish()
                } catch {
                    signal.finish(throwing: error)
                    throw error
                }
            }
            var running = false
            for try await _ in started {
                running = true
                break
            }
            guard running else { throw CancellationError() }
            await work()
            group.cancelAll()
            await open(lane, nil)
            try await group.waitForAll()
        }
    }

    private nonisolated func discover(
        on lane: String, heard: @escaping @Sendable (BatchSighting) async -> Void, started: @Sendable () -> Void
    ) async throws {
        do {
            try await BlueZClient.withClient { client in
                let adapter = try await client.adapter(.name(lane))
                try await client.withDiscovery(on: adapter, filter: BlueZScanFilter()) { devices in
                    await self.open(lane, Lane(client: client, adapter: adapter))
                    started()
                    for try await device in devices {
                        await heard(
                            BatchSighting(lane: lane, address: device.address, name: device.name, rssi: device.rssi))
                    }
                }
            }
        } catch let error as ProvisioningError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ProvisioningError.fromBlueZ(error, while: "starting discovery on \(lane)")
        }
    }
}
