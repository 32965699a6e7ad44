import Foundation

/// RFC 4180 field quoting.
enum CSVField {
    /// `text` as a CSV field: quoted, with quotes doubled, when it holds a comma, quote or line break.
    static func quoted(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
