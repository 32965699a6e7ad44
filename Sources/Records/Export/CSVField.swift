/// RFC 4180 field quoting, with formula cells neutralised.
enum CSVField {
    /// Spreadsheets run a cell that starts with one of these as a formula (OWASP's CSV injection list).
    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `text` as a CSV field: prefixed with `'` when a spreadsheet would take it for a formula (unit
    /// names and QR labels come from devices and scanners), then quoted, with quotes doubled, when it
    /// holds a comma, quote or line break.
    static func quoted(_ text: String) -> String {
        let cell = text.unicodeScalars.first.map(formulaStarts.contains) == true ? "'" + text : text
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return cell }
        return "\"" + cell.replacing("\"", with: "\"\"") + "\""
    }
}
