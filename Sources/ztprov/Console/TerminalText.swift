/// Text from a radio, a scanner or a database made printable before it reaches a terminal.
///
/// Device names, networks a device lists, Improv URLs and device info, scanned labels and record values
/// may hold characters a terminal acts on instead of showing: ESC starting a control sequence (colours,
/// cursor moves, OSC titles and hyperlinks), BEL, a carriage return that overwrites the line, C1 controls
/// (which some terminals take as ESC sequences) and bidirectional overrides that reorder what is shown.
/// Each becomes a visible escape (`\x1B`, `\u202E`), so the text reads as what arrived. Every human line
/// ztprov prints passes through here (``Console``, the live region, the CSV export on a terminal).
enum TerminalText {
    /// `text` with every control, C1 and bidirectional formatting character shown as an escape; the
    /// characters in `kept` (a table's tab and line breaks) stay.
    static func printable(_ text: some StringProtocol, keeping kept: Set<Unicode.Scalar> = []) -> String {
        guard text.unicodeScalars.contains(where: { isActive($0) && !kept.contains($0) }) else { return String(text) }
        var result = ""
        for scalar in text.unicodeScalars {
            if isActive(scalar), !kept.contains(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += scalar.value < 0x100 ? "\\x" + (hex.count < 2 ? "0" : "") + hex : "\\u" + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Lines of text (a table, an export): each line made printable, tabs kept, and a line's ending
    /// (`\n` or `\r\n`) kept as it was.
    static func lines(_ text: some StringProtocol) -> String {
        // By scalars: as characters, `\r\n` is one and would not split at `\n`.
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.last == "\r"
                ? printable(String(String.UnicodeScalarView(line.dropLast())), keeping: ["\t"]) + "\r"
                : printable(String(String.UnicodeScalarView(line)), keeping: ["\t"])
        }.joined(separator: "\n")
    }

    /// Whether a terminal would act on `scalar` rather than show it.
    static func isActive(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }
}
