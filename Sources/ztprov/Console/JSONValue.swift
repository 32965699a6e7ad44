import JSONWriting

/// A JSON value whose objects keep their key order, for JSON Lines on stdout.
///
/// `event` comes first in every line so people reading a log see what each line is at a glance.
enum JSONValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral
{
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([JSONField])

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }

    /// `.string(text)`, or `.null` when there is no text.
    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// `.int(number)`, or `.null` when there is no number.
    static func optional(_ number: Int?) -> JSONValue { number.map(JSONValue.int) ?? .null }

    /// Compact text on one line.
    var serialized: String {
        switch self {
        case .string(let text): JSONText.quoted(text)
        case .int(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .array(let elements): "[" + elements.map(\.serialized).joined(separator: ",") + "]"
        case .object(let fields):
            "{" + fields.map { JSONText.quoted($0.key) + ":" + $0.value.serialized }.joined(separator: ",") + "}"
        }
    }
}

/// One member of a JSON object.
struct JSONField: Sendable, Equatable {
    var key: String
    var value: JSONValue

    init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
