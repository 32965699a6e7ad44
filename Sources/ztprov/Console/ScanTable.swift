import BlueZ

/// One device `ztprov scan` saw: the last advertisement wins, for the RSSI.
struct ScannedDevice: Sendable, Equatable {
    let name: String?
    let address: String
    let rssi: Int?
    let adapter: String

    init(_ device: BlueZDevice, adapter: BlueZAdapter) {
        name = device.name
        address = device.address
        rssi = device.rssi
        self.adapter = adapter.name
    }

    /// The `{"event":"device",…}` members.
    var fields: [JSONField] {
        [
            JSONField("name", .optional(name)), JSONField("address", .string(address)),
            JSONField("rssi", .optional(rssi)), JSONField("adapter", .string(adapter)),
        ]
    }
}

/// The human table of `ztprov scan`: one row per device, strongest first.
struct ScanTable {
    static let headers = ["NAME", "ADDRESS", "RSSI", "ADAPTER"]

    let rows: [[String]]

    init(_ devices: [ScannedDevice]) {
        rows = devices.map { [$0.name ?? "-", $0.address, $0.rssi.map(String.init) ?? "-", $0.adapter] }
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
