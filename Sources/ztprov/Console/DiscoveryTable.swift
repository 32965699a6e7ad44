import JSONWriting
import Provisioning
import Transports
import ZhitingLAN

/// The human table of `ztprov discover`: one row per device, columns padded to fit.
struct DiscoveryTable {
    static let headers = ["ID", "IP", "KIND", "MODEL", "SOFTWARE", "HARDWARE", "SA ID"]

    let rows: [[String]]

    init(_ devices: [LANDiscoveredDevice]) {
        rows = devices.map { entry in
            [
                "\(entry.device.id)", entry.device.endpoint.host, Self.kind(entry),
                entry.info?.model ?? entry.device.helloModel ?? "-", entry.info?.softwareVersion ?? "-",
                entry.info?.hardwareVersion ?? "-", entry.info?.smartAssistantID ?? "-",
            ].map { TerminalText.printable($0) }
        }
    }

    /// The table with a header line, columns separated by two spaces, no trailing blanks.
    var rendered: String {
        let table = [Self.headers] + rows
        let widths = Self.headers.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        return table.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column])
            }.joined(separator: "  ").trimmingTrailingSpaces
        }.joined(separator: "\n")
    }

    /// The `{"event":"device",…}` members for one entry.
    static func fields(_ entry: LANDiscoveredDevice) -> [JSONField] {
        var fields = LANFields.fields(entry.device) + [JSONField("kind", .string(kind(entry)))]
        if let info = entry.info {
            fields += LANFields.fields(info)
        } else {
            fields += [JSONField("model", .optional(entry.device.helloModel))]
        }
        if let problem = entry.problem {
            fields += [
                JSONField("error", .string(problem.code.rawValue)), JSONField("message", .string(problem.message)),
            ]
        }
        return fields
    }

    private static func kind(_ entry: LANDiscoveredDevice) -> String {
        entry.isSmartAssistant ? "smart-assistant" : "device"
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        self + String(repeating: " ", count: max(0, length - count))
    }

    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
