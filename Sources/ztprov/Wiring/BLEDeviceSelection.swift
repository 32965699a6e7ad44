import BlueZ
import JSONWriting
import Provisioning

/// The first steps of `ztprov ble` for every protocol: find the device, then settle which protocol it
/// speaks, from `--protocol`, its advertisement, or (when it advertises none) its GATT database.
enum BLEDeviceSelection {
    /// A device found and the protocol to run with it.
    struct SelectedDevice: Sendable {
        let device: BlueZDevice
        let chosen: BLEProtocol
    }

    /// Scans on `adapter` for at most `scanFor` until `policy` or the person settled the device, and
    /// decides the protocol; call inside `client`'s scope.
    ///
    /// Throws `ble.services-missing` when a fixed protocol meets a device advertising another one, or
    /// when auto detection finds no protocol ztprov speaks.
    static func select(
        _ options: BLEAdapterOptions, on client: BlueZClient, adapter: BlueZAdapter, address: String?,
        policy: BLEDevicePolicy, choice: BLEProtocolChoice, scanFor: Duration, context: CommandContext
    ) async throws -> SelectedDevice {
        let wanted = choice.candidates.map(\.description).joined(separator: " or ")
        context.console.progress(
            "Scanning on \(adapter.name) for \(address ?? options.namePrefix ?? "\(wanted) devices")")
        let device = try await BLEDeviceScan.chosen(
            on: client, adapter: adapter, filter: options.filter(address: address, protocols: choice.candidates),
            policy: policy, scanFor: scanFor, context: context)
        let advertised = BLEProtocol.advertised(serviceUUIDs: device.serviceUUIDs, serviceData: device.serviceData)
        let label = "\(device.name ?? "The device") (\(device.address))"
        switch (choice, advertised) {
        case (.fixed(let chosen), let advertised?) where advertised != chosen:
            throw ProvisioningError(
                .bleServicesMissing, "\(label) advertises \(advertised), not \(chosen).",
                hint: "Run again with --protocol \(advertised.rawValue), or --protocol auto.")
        case (.fixed(let chosen), _):
            return selected(device, chosen, from: .option, context: context)
        case (.auto, let advertised?):
            return selected(device, advertised, from: .advertisement, context: context)
        case (.auto, nil):
            context.console.progress("\(label) advertises no provisioning service: reading its GATT database")
            let offered = try await client.withConnectedDevice(device) {
                try await BLEProtocol.detected(
                    on: $0, advertised: device.serviceUUIDs, until: .now + client.timeouts.write)
            }
            guard let offered else {
                throw ProvisioningError(
                    .bleServicesMissing,
                    "\(label) offers none of the provisioning services ztprov speaks "
                        + "(\(BLEProtocol.allCases.map(\.description).joined(separator: ", "))).",
                    hint: "Check --device or --name-prefix, and that the device is in provisioning mode.")
            }
            return selected(device, offered, from: .gattDatabase, context: context)
        }
    }

    /// What settled the protocol; the raw value is the JSON `detected_from`.
    private enum Source: String {
        case option
        case advertisement
        case gattDatabase = "gatt"

        var words: String {
            switch self {
            case .option: "as --protocol says"
            case .advertisement: "as it advertises"
            case .gattDatabase: "found in its GATT database"
            }
        }
    }

    private static func selected(
        _ device: BlueZDevice, _ chosen: BLEProtocol, from source: Source, context: CommandContext
    ) -> SelectedDevice {
        context.console.progress("Using \(chosen) with \(device.name ?? device.address), \(source.words)", detail: true)
        context.console.event(
            "protocol",
            [JSONField("protocol", .string(chosen.rawValue)), JSONField("detected_from", .string(source.rawValue))])
        return SelectedDevice(device: device, chosen: chosen)
    }
}
