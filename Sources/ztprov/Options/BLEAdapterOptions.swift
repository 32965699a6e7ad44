import ArgumentParser
import BlueZ
import Provisioning

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
                + "without it, devices advertising a provisioning service (BluFi, Improv, ESP protocomm).",
            valueName: "prefix"
        )
    )
    var namePrefix: String?

    /// The adapter to use: the one named, or the first powered.
    var selector: BlueZAdapterSelector { adapter ?? .firstPowered }

    /// The scan filter: an address alone (so a device of another protocol is found and named), else the
    /// name prefix (devices need not advertise a service then), else any of `protocols`' services.
    func filter(address: String? = nil, protocols: [BLEProtocol] = BLEProtocol.allCases) -> BlueZScanFilter {
        if let address { return BlueZScanFilter(address: address) }
        if let namePrefix { return BlueZScanFilter(namePrefix: namePrefix) }
        return BlueZScanFilter(serviceUUIDs: protocols.map(\.serviceUUID))
    }
}

private func parseAdapter(_ text: String) throws -> BlueZAdapterSelector {
    guard let selector = BlueZAdapterSelector(text) else {
        throw ValidationError("--adapter takes hciN, a controller address (AA:BB:CC:DD:EE:FF) or slot:N.")
    }
    return selector
}
