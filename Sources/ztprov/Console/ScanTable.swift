import BlueZ
import Improv
import JSONWriting
import Provisioning

/// One device `ztprov scan` saw: the last advertisement wins, for the RSSI and the advertised state.
struct ScannedDevice: Sendable, Equatable {
    let name: String?
    let address: String
    let rssi: Int?
    let adapter: String
    /// The protocol the advertisement announces, if it announces one.
    let advertisedProtocol: BLEProtocol?
    /// An Improv device's advertised state and capabilities.
    let improv: ImprovServiceData?

    init(_ device: BlueZDevice, adapter: BlueZAdapter) {
        name = device.name
        address = device.address
        rssi = device.rssi
        self.adapter = adapter.name
        advertisedProtocol = BLEProtocol.advertised(serviceUUIDs: device.serviceUUIDs, serviceData: device.serviceData)
        improv = ImprovBLEFlow.advertised(
            by: BLEPeer(address: device.address, name: device.name, serviceData: device.serviceData))
    }

    /// The protocol's state as the device advertises it, where the protocol advertises one.
    var state: String? {
        improv.map { ImprovFields.name($0.state) }
    }

    /// What `ble`'s choice of device sees of it.
    var candidate: BLECandidate {
        BLECandidate(address: address, name: name, rssi: rssi, advertisedProtocol: advertisedProtocol, state: state)
    }

    /// The `{"event":"device",…}` members.
    var fields: [JSONField] {
        var fields = [
            JSONField("name", .optional(name)), JSONField("address", .string(address)),
            JSONField("rssi", .optional(rssi)), JSONField("adapter", .string(adapter)),
            JSONField("protocol", .optional(advertisedProtocol?.rawValue)), JSONField("state", .optional(state)),
        ]
        if let improv { fields.append(ImprovFields.capabilitiesField(improv.capabilities)) }
        return fields
    }
}

/// The human table of `ztprov scan`: one row per device, strongest first.
struct ScanTable {
    static let headers = ["NAME", "ADDRESS", "RSSI", "PROTOCOL", "STATE", "ADAPTER"]

    let rows: [[String]]

    init(_ devices: [ScannedDevice]) {
        rows = devices.map {
            [
                $0.name ?? "-", $0.address, $0.rssi.map(String.init) ?? "-", $0.advertisedProtocol?.rawValue ?? "-",
                $0.state ?? "-", $0.adapter,
            ].map { TerminalText.printable($0) }
        }
    }

    /// The table with a header line, columns separated by two spaces, no trailing blanks.
    var rendered: String {
        let table = [Self.headers] + rows
        let widths = Self.headers.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        return table.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
