import ArgumentParser

/// A number of seconds as people write it: decimal digits with at most one `.`, nothing else.
///
/// `Double(_:)` alone also takes `0x10` (16), `1e3`, `+5`, `nan` and `inf`; a typo such as `0x10` for
/// `10` would then silently mean something else, so every seconds option parses through this.
enum DecimalSeconds {
    static func parse(_ text: String) throws -> Double {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDecimal =
            !text.isEmpty && text.count <= 16
            && parts.allSatisfy { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
            && parts.contains { !$0.isEmpty } && !text.dropFirst(parts[0].count + 1).contains(".")
        guard isDecimal, let value = Double(text), value.isFinite else {
            throw ValidationError("A number of seconds is written in decimal digits, such as 15 or 2.5.")
        }
        return value
    }
}
