import FoundationEssentials
import Records

/// The `attempts` table's statements and the mapping between its rows and records.
enum SQLiteAttemptsTable {
    static let columns = [
        "batch_id", "station", "adapter", "device_key", "address", "device_id", "path", "security", "attempt",
        "is_final", "code", "message", "started_at", "finished_at", "steps", "firmware_blufi", "firmware_protocomm",
        "firmware_device", "protocol", "secured_with",
    ]

    static let insert =
        "INSERT INTO attempts (\(columns.joined(separator: ", "))) VALUES ("
        + (1...columns.count).map { "?\($0)" }.joined(separator: ", ") + ")"

    /// A file of an older schema, opened for reading, lacks the newer columns: they read as NULL.
    static func select(missingColumns: Set<String>) -> String {
        let selected = columns.map { missingColumns.contains($0) ? "NULL" : $0 }
        return """
            SELECT \(selected.joined(separator: ", ")) FROM attempts
            WHERE (?1 IS NULL OR started_at >= ?1) AND (?2 IS NULL OR station = ?2)
            ORDER BY started_at, id
            """
    }

    /// The records numbered above ?1 (the row ID, the primary key: an indexed range), at most ?2 of them.
    static func feed(missingColumns: Set<String>) -> String {
        let selected = columns.map { missingColumns.contains($0) ? "NULL" : $0 }
        return "SELECT \(selected.joined(separator: ", ")), id FROM attempts WHERE id > ?1 ORDER BY id LIMIT ?2"
    }

    /// The keys are bound as one JSON array, so a batch of any size is one statement.
    static let provisionedKeys = """
        SELECT DISTINCT device_key FROM attempts
        WHERE code = ?1 AND device_key IN (SELECT value FROM json_each(?2))
        """

    static func values(_ record: ProvisioningRecord) throws(RecordStoreError) -> [SQLiteValue] {
        [
            .text(record.batchID), .text(record.station), .text(record.adapter), .text(record.deviceKey),
            SQLiteValue(record.address), SQLiteValue(record.deviceID), .text(record.path.rawValue),
            SQLiteValue(record.security), .integer(Int64(record.attempt)), .integer(record.isFinal ? 1 : 0),
            .text(record.code), SQLiteValue(record.message), .integer(microseconds(record.startedAt)),
            .integer(microseconds(record.finishedAt)), .text(try RecordedStep.jsonText(record.steps)),
            SQLiteValue(record.firmware.bluFi), SQLiteValue(record.firmware.protocomm),
            SQLiteValue(record.firmware.device), SQLiteValue(record.provisioningProtocol),
            SQLiteValue(record.securedWith?.text),
        ]
    }

    static func record(_ row: [SQLiteValue]) throws(RecordStoreError) -> ProvisioningRecord {
        guard row.count == columns.count, let path = row[6].text.flatMap(ProvisioningPath.init(rawValue:)),
            let attempt = row[8].integer, let isFinal = row[9].integer, let started = row[12].integer,
            let finished = row[13].integer, let steps = row[14].text
        else { throw RecordStoreError(.failed, "a row of attempts does not match the schema") }
        return ProvisioningRecord(
            batchID: row[0].text ?? "", station: row[1].text ?? "", adapter: row[2].text ?? "",
            deviceKey: row[3].text ?? "", address: row[4].text, deviceID: row[5].text, path: path,
            security: row[7].text, attempt: Int(attempt), isFinal: isFinal != 0, code: row[10].text ?? "",
            message: row[11].text, startedAt: date(microseconds: started), finishedAt: date(microseconds: finished),
            steps: try RecordedStep.steps(jsonText: steps),
            firmware: FirmwareVersions(bluFi: row[15].text, protocomm: row[16].text, device: row[17].text),
            provisioningProtocol: row[18].text, securedWith: row[19].text.flatMap(ProvisioningSecurity.init(text:)))
    }

    static func microseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    static func date(microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }
}
