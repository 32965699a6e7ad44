/// A value bound to a statement parameter or read from a result column.
enum SQLiteValue: Equatable {
    case null
    case integer(Int64)
    case text(String)

    /// `.text(text)` or `.null`.
    init(_ text: String?) {
        self = text.map(SQLiteValue.text) ?? .null
    }

    var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    var integer: Int64? {
        if case .integer(let number) = self { return number }
        return nil
    }
}
