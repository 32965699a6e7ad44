/// Text as a hostile scanner or device might send it: markup, quotes, entities, control characters,
/// non-ASCII, bidirectional overrides and very long runs, joined at random.
public enum HostileText {
    static let pieces = [
        "<script>alert(1)</script>", "\"", "'", "&", "&amp;", "&#0;", "<", ">", "</td></tr></table>", "<!--",
        "]]>", "<img src=x onerror=alert(1)>", "\u{0}", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{FFFF}", "\r\n",
        "\t", "工厂", "Gerät", "🔒", "e\u{301}", "\u{202E}", "javascript:", String(repeating: "x", count: 3000),
        " style=\"x\"", "{{x}}", "<style>body{display:none}</style>",
    ]

    /// One to six pieces drawn by `random`.
    public static func next(_ random: inout SplitMix64) -> String {
        (0..<(1 + random.below(6))).map { _ in pieces[random.below(pieces.count)] }.joined()
    }

    /// `text` as a Prometheus label value carries it once unescaped: control characters other than the line
    /// feed become U+FFFD.
    public static func asMetricLabel(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    scalar != "\n" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
                        ? "\u{FFFD}" : scalar
                }))
    }
}
