/// Text from records made safe to place in HTML content and quoted attribute values.
///
/// Unit names, device IDs and messages come from scanners and devices: markup characters become
/// character references, and characters HTML does not allow in a document (C0 and C1 controls other
/// than tab and line breaks, noncharacters) become U+FFFD, so any input leaves the page well-formed
/// and inert. Tabs and line breaks become spaces: every value is one line. Very long values are cut,
/// so one bad scan cannot bury the report.
enum HTMLText {
    /// The most characters of one value the page shows.
    static let maximumCharacters = 160

    static func escaped(_ text: String) -> String {
        text.replacingScalars { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            case "\t", "\n", "\r": " "
            case _ where isDisallowed(scalar): "\u{FFFD}"
            default: nil
            }
        }
    }

    /// `text` escaped, cut to ``maximumCharacters`` with an ellipsis when longer.
    static func shown(_ text: String) -> String {
        guard text.count > maximumCharacters else { return escaped(text) }
        return escaped(String(text.prefix(maximumCharacters - 1))) + "\u{2026}"
    }

    private static func isDisallowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0xFDD0...0xFDEF: true
        case _ where scalar.value & 0xFFFE == 0xFFFE: true
        default: false
        }
    }
}
