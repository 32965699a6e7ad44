import BlueZ
import JSONWriting
import Provisioning

/// `ztprov ble` against bluetoothd: find the device, settle its protocol, and run that protocol's entry
/// (``BLEFlowRegistry``) through a link whose connections stop notifications and disconnect on every exit
/// path.
enum BLEWiring {
    /// Prepares every registered protocol's run (reading their secrets), scans (at most `scanFor`), picks
    /// the protocol, and provisions.
    static func provision(
        _ options: BLERunOptions, bluetooth: BLEAdapterOptions, device address: String?, policy: BLEDevicePolicy,
        choice: BLEProtocolChoice, scanFor: Duration
    ) async throws(ProvisioningError) -> BLEFlowResult {
        let context = options.context
        var prepared: [BLEProtocol: BLEPreparedRun] = [:]
        for entry in BLEFlowRegistry.registered { prepared[entry.bleProtocol] = try entry.ble(options) }
        if let join = options.settings?.join { try await HostNetworkLook.advise(join, context: context) }
        let activity = BLEActivity("connecting to bluetoothd")
        do {
            return try await BlueZClient.withClient(
                bus: BusHandshake.systemBus, timeouts: BusHandshake.blueZTimeouts(by: context.deadline)
            ) { client in
                let adapter = try await client.adapter(bluetooth.selector)
                activity.now("scanning")
                let selected = try await BLEDeviceSelection.select(
                    bluetooth, on: client, adapter: adapter, address: address, policy: policy, choice: choice,
                    scanFor: scanFor,
                    context: context)
                let device = selected.device
                activity.now("connecting")
                context.console.progress("Connecting to \(device.name ?? "the device") (\(device.address))")
                context.console.event("connecting", [JSONField("address", .string(device.address))])
                for options in options.command.protocolOptions {
                    if let refusal = options.refusal(for: selected.chosen) { throw refusal }
                }
                guard let run = prepared[selected.chosen] else { throw BlueZError.deviceNotFound }
                let link = BlueZBLELink(
                    client: client, device: device, speaking: selected.chosen, deadline: context.deadline,
                    activity: activity
                ) { mtu in
                    context.console.progress("Connected to \(device.address), ATT MTU \(mtu)")
                    context.console.event("connected", [JSONField("mtu", .int(mtu))])
                }
                return try await run.run(link)
            }
        } catch {
            throw .fromBlueZ(error, while: activity.current)
        }
    }

    /// A Thread dataset goes to ESP protocomm devices only.
    static func threadNeedsProtocomm(_ chosen: BLEProtocol) -> ProvisioningError {
        ProvisioningError(
            .invalidOption, "--thread-dataset-file applies to ESP protocomm devices; this one speaks \(chosen).",
            hint: "Provision this device with --ssid and a Wi-Fi password.")
    }
}
