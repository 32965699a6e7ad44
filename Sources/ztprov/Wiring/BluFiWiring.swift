import BluFi
import BlueZ
import Provisioning

/// `ztprov ble` against bluetoothd: find the device, connect, run the BluFi flow, and let the
/// connection scope stop notifications and disconnect on every exit path.
extension BLEAdapterOptions {
    /// What the BLE part established, and with which device.
    struct BluFiRun: Sendable {
        let name: String?
        let address: String
        let outcome: BluFiProvisioningOutcome
    }

    /// Scans (at most `scanFor`), connects with the adapter's classified retries, and provisions.
    func provision(
        _ settings: BluFiWiFiSettings, device address: String?, security: BluFiSecurityChoice, scanFor: Duration,
        context: CommandContext
    ) async throws(ProvisioningError) -> BluFiRun {
        let (filter, selector) = (filter(address: address), selector)
        var activity = "connecting to bluetoothd"
        do {
            return try await BlueZClient.withClient { client in
                let adapter = try await client.adapter(selector)
                activity = "scanning"
                context.console.progress("Scanning on \(adapter.name) for \(address ?? namePrefix ?? "BluFi devices")")
                let device = try await client.findDevice(on: adapter, filter: filter, timeout: scanFor)
                activity = "connecting"
                context.console.progress("Connecting to \(device.name ?? "the device") (\(device.address))")
                context.console.event("connecting", [JSONField("address", .string(device.address))])
                let printer = BluFiProgressPrinter(console: context.console)
                let outcome = try await BluFiProvisioner.runFallingBack(
                    settings, security: security, logger: context.logger, deadline: context.deadline,
                    progress: printer.report
                ) { session in
                    activity = "connecting"
                    return try await client.withConnectedDevice(
                        device, requiring: [BluFiGATTProfile.serviceUUID], until: context.deadline
                    ) {
                        gatt in
                        activity = "talking BluFi"
                        context.console.progress("Connected to \(device.address), ATT MTU \(gatt.mtu)")
                        context.console.event("connected", [JSONField("mtu", .int(gatt.mtu))])
                        return try await session(gatt)
                    }
                }
                return BluFiRun(name: device.name, address: device.address, outcome: outcome)
            }
        } catch {
            throw .fromBlueZ(error, while: activity)
        }
    }
}
