/// A JSON value whose objects keep their key order: the console's JSON Lines put `event` first so
/// people reading a log see what each line is at a glance, and the emulated device's `proto-ver`
/// reply lists its members as a device does.
public enum JSONValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral
{
    case string(String)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([JSONField])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }

    /// `.string(text)`, or `.null` when there is no text.
    public static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// `.int(number)`, or `.null` when there is no number.
    public static func optional(_ number: Int?) -> JSONValue { number.map(JSONValue.int) ?? .null }

    /// Compact text on one line.
    public var serialized: String {
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
