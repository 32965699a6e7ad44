internal import JSONWriting

/// `ztprov report`'s output: every attempt as a CSV row or a JSON Lines object, one per line.
///
/// JSON comes as JSON Lines rather than one array: a big export streams and concatenates, a reader
/// can stop at any line, and `jq` and pandas (`lines=True`) read it as is. CSV follows RFC 4180: a
/// header row, CRLF line ends, and fields holding a comma, quote or line break quoted.
/// Timestamps are ISO 8601 in UTC with milliseconds; both formats carry the same columns in the same order.
public struct RecordExport: Sendable {
    /// The two export formats.
    public enum Format: String, Sendable, CaseIterable {
        case csv
        /// JSON Lines: one object per attempt per line.
        case json
    }

    public let format: Format

    public init(_ format: Format) {
        self.format = format
    }

    /// The text before the first record: the CSV header row, nothing for JSON Lines.
    public var header: String {
        switch format {
        case .csv: RecordExportColumn.all.map { CSVField.quoted($0.name) }.joined(separator: ",") + "\r\n"
        case .json: ""
        }
    }

    /// One record as a line, with its line end.
    public func line(_ record: ProvisioningRecord) -> String {
        let values = RecordExportColumn.all.map { ($0.name, $0.value(record)) }
        switch format {
        case .csv:
            return values.map { CSVField.quoted($0.1.csvText) }.joined(separator: ",") + "\r\n"
        case .json:
            return "{" + values.map { JSONText.quoted($0.0) + ":" + $0.1.jsonText }.joined(separator: ",") + "}\n"
        }
    }

    /// The whole export of `records`.
    public func text(_ records: [ProvisioningRecord]) -> String {
        records.reduce(into: header) { $0 += line($1) }
    }
}
