import BlueZ
import Provisioning

/// `ztprov scan` against bluetoothd: discover for a while, keep the latest sighting of each device.
enum BLEScanWiring {
    /// Scans for `duration` as `options` ask and returns what was seen, strongest first; throws
    /// `ble.device-not-found` when nothing matched.
    static func scan(
        _ options: BLEAdapterOptions, for duration: Duration, context: CommandContext
    ) async throws(ProvisioningError) -> [ScannedDevice] {
        let filter = options.filter()
        let selector = options.selector
        do {
            return try await BlueZClient.withClient(
                bus: BusHandshake.systemBus, timeouts: BusHandshake.blueZTimeouts(by: context.deadline)
            ) {
                client in
                let adapter = try await client.adapter(selector)
                context.console.progress("Scanning on \(adapter.name) (\(adapter.address)) for \(duration)")
                var seen: [String: ScannedDevice] = [:]
                try await client.withDiscovery(on: adapter, filter: filter, duration: duration) { devices in
                    for try await device in devices {
                        let entry = ScannedDevice(device, adapter: adapter)
                        if seen[entry.address] == nil {
                            context.console.progress("Found \(entry.name ?? "a device") at \(entry.address)")
                        }
                        seen[entry.address] = entry
                    }
                }
                guard !seen.isEmpty else { throw BlueZError.deviceNotFound }
                return BLEDeviceChoice.ranked(seen.values.map(\.candidate)).compactMap { seen[$0.address] }
            }
        } catch {
            throw .fromBlueZ(error, while: "scanning")
        }
    }
}
