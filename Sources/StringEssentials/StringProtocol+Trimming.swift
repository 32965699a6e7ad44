extension StringProtocol {
    /// The text without the white space (line breaks included) at either end.
    public func trimmingWhitespace() -> String {
        trimming { $0.isWhitespace }
    }

    /// The text without spaces and tabs at either end; line breaks stay.
    public func trimmingSpaces() -> String {
        trimming { $0.isWhitespace && !$0.isNewline }
    }

    private func trimming(_ isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
