import ArgumentParser
import BluFi
import BlueZ

/// Which Bluetooth adapter to use and which devices count as provisionable; shared by `scan` and `ble`.
struct BLEAdapterOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Bluetooth adapter: hciN, its controller address, or slot:N (udev ZTPROV_SLOT); "
                + "default the first powered one.",
            valueName: "adapter"
        ),
        transform: parseAdapter
    )
    var adapter: BlueZAdapterSelector?

    @Option(
        help: ArgumentHelp(
            "Only devices whose advertised name starts with this (the Zhiting app uses MH-); "
                + "without it, devices advertising the BluFi service FFFF.",
            valueName: "prefix"
        )
    )
    var namePrefix: String?

    /// The adapter to use: the one named, or the first powered.
    var selector: BlueZAdapterSelector { adapter ?? .firstPowered }

    /// The scan filter: the name prefix when given (devices need not advertise FFFF then), else the service.
    func filter(address: String? = nil) -> BlueZScanFilter {
        if let namePrefix {
            return BlueZScanFilter(namePrefix: namePrefix, address: address)
        }
        return BlueZScanFilter(serviceUUIDs: [BluFiGATTProfile.serviceUUID], address: address)
    }
}

private func parseAdapter(_ text: String) throws -> BlueZAdapterSelector {
    guard let selector = BlueZAdapterSelector(text) else {
        throw ValidationError("--adapter takes hciN, a controller address (AA:BB:CC:DD:EE:FF) or slot:N.")
    }
    return selector
}
