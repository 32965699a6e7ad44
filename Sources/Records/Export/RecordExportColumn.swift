import FoundationEssentials
internal import JSONWriting

/// One column of an export: its snake_case name, shared by the CSV header and the JSON keys, and how
/// a record fills it.
struct RecordExportColumn: Sendable {
    let name: String
    let value: @Sendable (ProvisioningRecord) -> RecordExportValue

    /// The columns in export order: identity first, then outcome, timing and versions; columns added later come
    /// last, so scripts reading by position keep working.
    static let all: [RecordExportColumn] = [
        .init(name: "batch_id") { .text($0.batchID) },
        .init(name: "station") { .text($0.station) },
        .init(name: "adapter") { .text($0.adapter) },
        .init(name: "device_key") { .text($0.deviceKey) },
        .init(name: "address") { .text($0.address) },
        .init(name: "device_id") { .text($0.deviceID) },
        .init(name: "path") { .text($0.path.rawValue) },
        .init(name: "protocol") { .text($0.provisioningProtocol) },
        .init(name: "security") { .text($0.security) },
        .init(name: "attempt") { .integer($0.attempt) },
        .init(name: "is_final") { .boolean($0.isFinal) },
        .init(name: "code") { .text($0.code) },
        .init(name: "message") { .text($0.message) },
        .init(name: "started_at") { .text(timestamp($0.startedAt)) },
        .init(name: "finished_at") { .text(timestamp($0.finishedAt)) },
        .init(name: "duration_ms") { .integer(milliseconds(from: $0.startedAt, to: $0.finishedAt)) },
        .init(name: "steps") { .steps($0.steps) },
        .init(name: "firmware_blufi") { .text($0.firmware.bluFi) },
        .init(name: "firmware_protocomm") { .text($0.firmware.protocomm) },
        .init(name: "firmware_device") { .text($0.firmware.device) },
        .init(name: "secured_with") { .text($0.securedWith?.text) },
        .init(name: "security_level") { .text($0.securedWith?.level.rawValue) },
    ]

    /// `2024-05-01T08:30:00.125Z`: UTC, so exports from stations in different time zones line up.
    static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
    }

    /// A stored record may hold any dates (another writer, a damaged file); a span no `Int` holds is 0.
    private static func milliseconds(from start: Date, to end: Date) -> Int {
        Int(exactly: (end.timeIntervalSince(start) * 1000).rounded()) ?? 0
    }
}

/// A column's value, which CSV and JSON spell differently.
enum RecordExportValue: Sendable {
    case text(String?)
    case integer(Int)
    case boolean(Bool)
    case steps([RecordedStep])

    /// The CSV field before quoting: empty for nil, steps as `name=ms;name=ms`.
    var csvText: String {
        switch self {
        case .text(let text): text ?? ""
        case .integer(let number): String(number)
        case .boolean(let flag): String(flag)
        case .steps(let steps): steps.map { "\($0.name)=\($0.milliseconds)" }.joined(separator: ";")
        }
    }

    /// The JSON value: null for nil, steps as `[{"name":…,"milliseconds":…}]`.
    var jsonText: String {
        switch self {
        case .text(let text): text.map(JSONText.quoted) ?? "null"
        case .integer(let number): String(number)
        case .boolean(let flag): String(flag)
        case .steps(let steps):
            "["
                + steps.map { "{\"name\":\(JSONText.quoted($0.name)),\"milliseconds\":\($0.milliseconds)}" }
                .joined(separator: ",") + "]"
        }
    }
}
