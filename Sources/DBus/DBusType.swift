/// The type of one D-Bus value, as a signature spells it (`y`, `as`, `a{sv}`, `(oa{sv})` …).
///
/// Values carry their type so that empty arrays and dictionaries still encode with the right signature.
public indirect enum DBusType: Sendable, Hashable {
    case byte
    case boolean
    case int16
    case uint16
    case int32
    case uint32
    case int64
    case uint64
    case double
    case string
    case objectPath
    case signature
    case unixFD
    case variant
    case array(DBusType)
    case dictionary(key: DBusType, value: DBusType)
    case structure([DBusType])

    /// The signature text of this type.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .variant: "v"
        case .array(let element): "a" + element.signature
        case .dictionary(let key, let value): "a{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        }
    }

    /// Whether the type may be a dictionary key: the D-Bus specification allows basic (non-container) types only.
    public var isBasic: Bool {
        switch self {
        case .variant, .array, .dictionary, .structure: false
        default: true
        }
    }

    /// Parses a signature holding exactly one complete type; nil for anything else.
    public init?(signature: String) {
        var scalars = Substring(signature)
        guard let type = DBusType.parse(&scalars), scalars.isEmpty else { return nil }
        self = type
    }

    /// Parses every complete type of a message signature (`sa{sv}as` → three types); nil if malformed.
    public static func types(inSignature signature: String) -> [DBusType]? {
        var rest = Substring(signature)
        var types: [DBusType] = []
        while !rest.isEmpty {
            guard let type = parse(&rest) else { return nil }
            types.append(type)
        }
        return types
    }

    private static let basicCodes: [Character: DBusType] = [
        "y": .byte, "b": .boolean, "n": .int16, "q": .uint16, "i": .int32, "u": .uint32, "x": .int64,
        "t": .uint64, "d": .double, "s": .string, "o": .objectPath, "g": .signature, "h": .unixFD, "v": .variant,
    ]

    private static func parse(_ text: inout Substring) -> DBusType? {
        guard let code = text.popFirst() else { return nil }
        if let basic = basicCodes[code] { return basic }
        switch code {
        case "a":
            if text.first == "{" {
                text.removeFirst()
                guard let key = parse(&text), key.isBasic, let value = parse(&text), text.popFirst() == "}" else {
                    return nil
                }
                return .dictionary(key: key, value: value)
            }
            return parse(&text).map { .array($0) }
        case "(":
            var fields: [DBusType] = []
            while let next = text.first, next != ")" {
                guard let field = parse(&text) else { return nil }
                fields.append(field)
            }
            guard text.popFirst() == ")", !fields.isEmpty else { return nil }
            return .structure(fields)
        default:
            return nil
        }
    }
}
