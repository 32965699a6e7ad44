import Foundation
import Records
import TestSupport
import Testing

@Suite struct RecordExportTests {
    static let columns = [
        "batch_id", "station", "adapter", "device_key", "address", "device_id", "path", "protocol", "security",
        "attempt",
        "is_final", "code", "message", "started_at", "finished_at", "duration_ms", "steps", "firmware_blufi",
        "firmware_protocomm", "firmware_device", "secured_with", "security_level",
    ]

    @Test func csvHasAHeaderAndOneCRLFRowPerRecord() {
        let bare = RecordStoreConformance.record("k1")
        let text = RecordExport(.csv).text([bare])
        #expect(text.hasPrefix(Self.columns.joined(separator: ",") + "\r\n"))
        #expect(
            text.hasSuffix(
                "b1,line-1,hci0,k1,,,ble,,,1,true,ok,,2024-05-01T08:00:00.125Z,2024-05-01T08:00:00.625Z,500,,,,,,\r\n"))
        #expect(text.components(separatedBy: "\r\n").count == 3)
    }

    @Test func csvQuotesCommasQuotesAndLineBreaks() {
        let row = RecordExport(.csv).line(RecordStoreConformance.fullRecord)
        #expect(row.contains(",\"ZT-\"\"Lamp\"\", 工厂\n#7\","))
        #expect(row.contains(",softap,protocomm,sec2 patch 1,3,true,protocomm.wrong-pop,"))
        #expect(
            row.contains(
                ",4375,join-hotspot=2100;session=87,,v1.1,2.0.3-β,protocomm-sec2+encrypted-link,authenticated\r\n"))
        #expect(row.hasPrefix("batch-2024-05-01,línea-1 ☕,hci1,"))
    }

    @Test func jsonLinesHaveSnakeCaseKeysInColumnOrderAndNulls() throws {
        let export = RecordExport(.json)
        let text = export.text([RecordStoreConformance.fullRecord, RecordStoreConformance.record("k1")])
        #expect(export.header.isEmpty)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        let full = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(Set(full.keys) == Set(Self.columns))
        #expect(full["device_key"] as? String == "ZT-\"Lamp\", 工厂\n#7")
        #expect(full["is_final"] as? Bool == true)
        #expect(full["attempt"] as? Int == 3)
        #expect(full["firmware_blufi"] is NSNull)
        #expect(full["protocol"] as? String == "protocomm")
        #expect(full["secured_with"] as? String == "protocomm-sec2+encrypted-link")
        #expect(full["security_level"] as? String == "authenticated")
        #expect(full["started_at"] as? String == "2024-05-01T08:00:00.125Z")
        let steps = try #require(full["steps"] as? [[String: Any]])
        #expect(steps.map { $0["name"] as? String } == ["join-hotspot", "session"])
        #expect(steps.map { $0["milliseconds"] as? Int } == [2100, 87])
        #expect(lines[0].hasPrefix("{\"batch_id\":\"batch-2024-05-01\",\"station\":"))
        let bare = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(bare["message"] is NSNull)
        #expect((bare["steps"] as? [Any])?.isEmpty == true)
    }

    @Test func jsonEscapesControlCharacters() throws {
        var record = RecordStoreConformance.record("tab\there\u{01}")
        record.message = "back\\slash \"quoted\"\r\n"
        let line = RecordExport(.json).line(record)
        #expect(line.contains(#""device_key":"tab\there\u0001""#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == "back\\slash \"quoted\"\r\n")
    }
}
