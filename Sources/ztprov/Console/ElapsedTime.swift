/// Time since the command started, written the way the TTY progress lines show it.
struct ElapsedTime: Equatable, Sendable {
    /// Whole tenths of a second, rounded down: a step never looks later than it was.
    let tenths: Int64

    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        tenths = max(0, seconds * 10 + attoseconds / 100_000_000_000_000_000)
    }

    /// `1.2s`, `73.0s`.
    var seconds: String { "\(tenths / 10).\(tenths % 10)s" }

    /// `[ 1.2s]`: padded so that steps under 100 s line up.
    var column: String {
        let text = seconds
        return "[" + String(repeating: " ", count: max(0, 5 - text.count)) + text + "]"
    }
}
