import FoundationEssentials
import Records

/// The `attempts` table's statements and the mapping between its rows (as text) and records.
///
/// Timestamps cross as whole microseconds since the epoch, so no time zone or text format is involved.
enum PostgresAttemptsTable {
    static let columns = [
        "batch_id", "station", "adapter", "device_key", "address", "device_id", "path", "security", "attempt",
        "is_final", "code", "message", "started_at", "finished_at", "steps", "firmware_blufi", "firmware_protocomm",
        "firmware_device", "protocol", "secured_with",
    ]

    /// The instant whose microseconds since the epoch are parameter `index`.
    private static func fromMicroseconds(_ index: Int) -> String {
        "timestamptz 'epoch' + $\(index)::bigint * interval '1 microsecond'"
    }

    static let insert =
        "INSERT INTO attempts (\(columns.joined(separator: ", "))) VALUES ("
        + (1...columns.count).map { index in
            switch columns[index - 1] {
            case "started_at", "finished_at": fromMicroseconds(index)
            case "steps": "$\(index)::jsonb"
            default: "$\(index)"
            }
        }.joined(separator: ", ") + ")"

    /// The channel a station notifies when it records an attempt, for live views listening on it.
    static let channel = "ztprov_records"

    /// ``insert`` that also notifies ``channel`` with the new row's number, in the same round trip; the
    /// notification reaches listeners when the insert commits.
    static let insertAndNotify =
        "WITH inserted AS (\(insert) RETURNING id) SELECT pg_notify('\(channel)', id::text) FROM inserted"

    /// The records numbered above $1 (the primary key: an indexed range), at most $2 of them.
    static func feed(missingColumns: Set<String>) -> String {
        let selected = columns.map { missingColumns.contains($0) ? "NULL" : Self.selected($0) }
        return
            "SELECT \(selected.joined(separator: ", ")), id FROM attempts WHERE id > $1::bigint ORDER BY id LIMIT $2::bigint"
    }

    /// A database of an older schema, opened for reading, lacks the newer columns: they read as NULL.
    static func select(missingColumns: Set<String>) -> String {
        let selected = columns.map { missingColumns.contains($0) ? "NULL" : Self.selected($0) }
        return """
            SELECT \(selected.joined(separator: ", ")) FROM attempts
            WHERE ($1::bigint IS NULL OR started_at >= \(fromMicroseconds(1)))
              AND ($2::text IS NULL OR station = $2::text)
            ORDER BY started_at, id
            """
    }

    static let provisionedKeys = """
        SELECT DISTINCT device_key FROM attempts
        WHERE code = $1 AND device_key IN (SELECT jsonb_array_elements_text($2::jsonb))
        """

    static func parameters(_ record: ProvisioningRecord) throws(RecordStoreError) -> [String?] {
        [
            record.batchID, record.station, record.adapter, record.deviceKey, record.address, record.deviceID,
            record.path.rawValue, record.security, String(record.attempt), record.isFinal ? "true" : "false",
            record.code, record.message, String(microseconds(record.startedAt)),
            String(microseconds(record.finishedAt)), try RecordedStep.jsonText(record.steps), record.firmware.bluFi,
            record.firmware.protocomm, record.firmware.device, record.provisioningProtocol, record.securedWith?.text,
        ]
    }

    static func record(_ row: [String?]) throws(RecordStoreError) -> ProvisioningRecord {
        guard row.count == columns.count, let path = row[6].flatMap(ProvisioningPath.init(rawValue:)),
            let attempt = row[8].flatMap({ Int($0) }), let started = row[12].flatMap({ Int64($0) }),
            let finished = row[13].flatMap({ Int64($0) }), let steps = row[14]
        else { throw RecordStoreError(.failed, "a row of attempts does not match the schema") }
        return ProvisioningRecord(
            batchID: row[0] ?? "", station: row[1] ?? "", adapter: row[2] ?? "", deviceKey: row[3] ?? "",
            address: row[4], deviceID: row[5], path: path, security: row[7], attempt: attempt, isFinal: row[9] == "t",
            code: row[10] ?? "", message: row[11], startedAt: date(microseconds: started),
            finishedAt: date(microseconds: finished), steps: try RecordedStep.steps(jsonText: steps),
            firmware: FirmwareVersions(bluFi: row[15], protocomm: row[16], device: row[17]),
            provisioningProtocol: row[18], securedWith: row[19].flatMap(ProvisioningSecurity.init(text:)))
    }

    static func microseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    private static func date(microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }

    private static func selected(_ column: String) -> String {
        switch column {
        case "started_at", "finished_at": "(extract(epoch FROM \(column)) * 1000000)::bigint"
        case "steps": "steps::text"
        default: column
        }
    }
}
